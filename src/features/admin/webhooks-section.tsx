// Webhooks told when requests end (server/notify): one's own (creators: their requests) and, for
// admins, the team's (every request). Adding one shows its signing secret once; each lists its last
// delivery. On the People screen for admins; the API is the same for everyone (docs/user-guide.md).
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from '@/api/zod';
import { Button } from '@/components/ui/core/button';
import { Field } from '@/components/ui/field';
import { hintClass, inputClass } from '@/components/ui/styles';
import { AdminSection, SectionError } from './admin-section';
import {
  addWebhook,
  listWebhooks,
  removeWebhook,
  webhookDeliveries,
  type Webhook,
  type WebhookDelivery as Delivery,
} from './admin-api';

const NAME_MAX = 100;
const URL_MAX = 2048;
const webhookForm = z.object({
  name: z
    .string()
    .check(z.trim(), z.minLength(1, 'Name it'), z.maxLength(NAME_MAX, `At most ${NAME_MAX} characters`)),
  url: z
    .string()
    .check(
      z.trim(),
      z.maxLength(URL_MAX, `At most ${URL_MAX} characters`),
      z.url({ protocol: /^https?$/, error: 'An http:// or https:// address' }),
    ),
  scope: z.enum(['person', 'team']),
});
type WebhookForm = z.infer<typeof webhookForm>;

const SCOPE_LABELS = { person: 'My requests', team: 'Every request of the team' } as const;

function LastDelivery({ id }: { id: string }) {
  const [last, setLast] = useState<Delivery | null>();
  useEffect(() => {
    webhookDeliveries(id)
      .then((deliveries) => setLast(deliveries[0] ?? null))
      .catch(() => setLast(null));
  }, [id]);
  if (last === undefined) return null;
  if (last === null) return <span className={hintClass}>Nothing sent yet</span>;
  const outcome =
    last.state === 'delivered'
      ? `Last message delivered (HTTP ${last.last_status})`
      : last.state === 'failed'
        ? `Last message not delivered: ${last.last_error ?? 'failed'}`
        : `Last message waiting to be sent${last.last_error ? ` (${last.last_error})` : ''}`;
  return <span className={hintClass}>{outcome}</span>;
}

export function WebhooksSection({ admin }: { admin: boolean }) {
  const [webhooks, setWebhooks] = useState<Webhook[]>();
  const [error, setError] = useState('');
  const [secret, setSecret] = useState<{ name: string; secret: string }>();
  const load = () =>
    listWebhooks()
      .then(setWebhooks)
      .catch((e: Error) => setError(e.message));
  useEffect(() => {
    void load();
  }, []);
  const form = useForm<WebhookForm>({
    resolver: zodResolver(webhookForm),
    defaultValues: { name: '', url: '', scope: admin ? 'team' : 'person' },
  });
  const { errors, isSubmitting } = form.formState;

  const add = form.handleSubmit(async (values) => {
    setError('');
    try {
      const made = await addWebhook(values);
      setSecret({ name: values.name, secret: made.secret });
      form.reset({ name: '', url: '', scope: values.scope });
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  });
  const remove = async (webhook: Webhook) => {
    setError('');
    try {
      await removeWebhook(webhook.id);
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <AdminSection
      name="webhooks"
      title="Webhooks"
      intro="The server posts a signed message (Slack-compatible JSON) when a request finishes or fails, whether or not anyone has the console open."
    >
      <SectionError message={error} />
      {secret && (
        <div
          role="status"
          className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-950 dark:bg-emerald-950/50 dark:text-emerald-50"
        >
          <p>
            <span className="font-medium">{secret.name}</span> added. Its signing secret, shown this once:
          </p>
          <code className="mt-1 block font-mono text-xs break-all select-all">{secret.secret}</code>
        </div>
      )}
      {webhooks && webhooks.length > 0 && (
        <ul aria-label="Webhooks" className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
          {webhooks.map((webhook) => (
            <li key={webhook.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="font-medium">
                  {webhook.name} <span className={hintClass}>· {SCOPE_LABELS[webhook.scope]}</span>
                </p>
                <p className="truncate font-mono text-xs">{webhook.url}</p>
                <LastDelivery id={webhook.id} />
              </div>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => void remove(webhook)}
                aria-label={`Remove ${webhook.name}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {webhooks?.length === 0 && <p className={hintClass}>No webhooks yet.</p>}
      <form
        onSubmit={(event) => void add(event)}
        noValidate
        className="grid gap-3 sm:grid-cols-[1fr_2fr_auto_auto] sm:items-start"
      >
        <Field label="Name" error={errors.name?.message}>
          {(control) => <input {...control} className={inputClass} {...form.register('name')} />}
        </Field>
        <Field label="Address" error={errors.url?.message}>
          {(control) => (
            <input
              {...control}
              type="url"
              placeholder="https://hooks.slack.com/services/…"
              className={inputClass}
              {...form.register('url')}
            />
          )}
        </Field>
        {admin ? (
          <Field label="Told of">
            {(control) => (
              <select {...control} className={inputClass} {...form.register('scope')}>
                <option value="team">{SCOPE_LABELS.team}</option>
                <option value="person">{SCOPE_LABELS.person}</option>
              </select>
            )}
          </Field>
        ) : null}
        <Button type="submit" pending={isSubmitting} className="sm:mt-6.5">
          Add webhook
        </Button>
      </form>
    </AdminSection>
  );
}
