import { describe, expect, it } from 'vitest';
import { CALLBACK_EXAMPLES } from '@/features/callbacks/callback-examples';
import { callbackBodyCheck } from './callback-check';
import { callbackBodySchema } from './schemas';

const examples = Object.values(CALLBACK_EXAMPLES);

/** Every way a stored body could be wrong that the screens rely on, for each task type. */
function variants(example: (typeof examples)[number]): unknown[] {
  const data = example.data as Record<string, unknown>;
  const textFields = Object.keys(data).filter((key) => key !== 'task_id' && key !== 'status');
  const values = [undefined, null, '', 'x', 0, 1.5, true, {}, [], ['x']];
  return [
    example,
    { ...example, extra: { trace: 1 } },
    { ...example, data: { ...data, extra: 1 } },
    null,
    [],
    'text',
    42,
    [example],
    ...values.map((code) => ({ ...example, code })),
    { ...example, code: 2 ** 53 },
    { ...example, code: -3 },
    ...values.map((msg) => ({ ...example, msg })),
    ...values.map((task_type) => ({ ...example, task_type })),
    { ...example, task_type: 'toString' },
    { ...example, task_type: '__proto__' },
    ...examples.map((other) => ({ ...example, task_type: other.task_type })),
    ...values.map((value) => ({ ...example, data: value })),
    ...values.map((task_id) => ({ ...example, data: { ...data, task_id } })),
    ...[...values, 'RUNNING', 'succeeded', 'PENDING', 'FAILED'].map((status) => ({
      ...example,
      data: { ...data, status },
    })),
    ...textFields.flatMap((field) =>
      values.map((value) => ({ ...example, data: { ...data, [field]: value } })),
    ),
    { ...example, data: { task_id: data.task_id, status: 'FAILED' } },
  ];
}

describe('callbackBodyCheck', () => {
  it.each(examples.map((example) => [example.task_type, example] as const))(
    'gives the zod schema’s verdict on valid and malformed %s bodies',
    (_type, example) => {
      for (const body of variants(example)) {
        const hand = callbackBodyCheck.safeParse(body);
        const zod = callbackBodySchema.safeParse(body);
        expect({ body, ok: hand.success }).toEqual({ body, ok: zod.success });
        if (hand.success) expect(hand.data).toEqual(zod.data);
        else expect(hand.error.issues[0]!.message).toBeTruthy();
      }
    },
  );

  it('keeps unknown fields, as the inbox stores them', () => {
    const body = { ...CALLBACK_EXAMPLES.image_generate, trace: 'abc' };
    expect(callbackBodyCheck.safeParse(body)).toMatchObject({ success: true, data: body });
  });
});
