// The pieces every path of the OpenAPI description is made of: a zod schema as JSON Schema, the
// answer's envelope, the refusals every route can give, and path and query parameters.
import { z } from '../../src/api/zod';

export type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema, as a client may send it or read it: `io: 'input'`, so fields with a
 * default are optional and objects stay open to fields a newer server adds (zod strips unknown
 * fields rather than refusing them). Checks JSON Schema cannot say (a refinement, a transform's
 * result) are left to the server, which answers 400 with the reason.
 */
export function jsonSchema(schema: z.core.$ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** The `{code, msg, data}` envelope every answer comes in, with `data` as given. */
export function envelope(data?: z.core.$ZodType): JsonSchema {
  return {
    type: 'object',
    required: ['code'],
    properties: {
      code: { type: 'integer', description: '0 on success; otherwise the reason code' },
      msg: { type: 'string' },
      ...(data && { data: jsonSchema(data) }),
    },
  };
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
export const ok = (description: string, schema: JsonSchema) => ({ description, content: json(schema) });
export const refusal = (description: string) => ({ description, content: json(ref('Refusal')) });

/** The refusals every route can give: no valid credentials, or a role that does not allow it. */
export const GUARDED = {
  '401': refusal('No sign-in, or a personal API token that is unknown, revoked or expired'),
  '403': refusal('The role of the person does not allow it, or the request came from another site'),
};

/** What the proxy answers when the service cannot be asked (never the in-process emulator). */
export const UNREACHABLE = {
  '502': refusal('The console could not reach the service'),
  '504': refusal('The service did not answer within 60 seconds'),
};

export const pathId = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
});
export const query = (name: string, description: string, schema: JsonSchema = { type: 'string' }) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});
