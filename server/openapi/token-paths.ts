// The paths of personal API tokens in the OpenAPI description (a signed-in browser only).
import {
  CreatedToken,
  CreateTokenBody,
  TOKEN_DAYS_MAX,
  TOKEN_DAYS_MIN,
  TokenList,
} from '../../src/api/api-tokens';
import { GUARDED, json, jsonSchema, ok, pathId, refusal } from './schema-parts';

/** One's tokens, everyone's (admins), making one and revoking one. */
export function tokenPaths() {
  return {
    '/__console/tokens': {
      get: {
        tags: ['tokens'],
        operationId: 'list_tokens',
        summary: 'The personal API tokens of the person signed in (revoked and expired ones too)',
        security: [{ session: [] }],
        responses: {
          '200': ok('The tokens, never the tokens themselves', jsonSchema(TokenList)),
          ...GUARDED,
        },
      },
      post: {
        tags: ['tokens'],
        operationId: 'create_token',
        summary: 'Make a personal API token: the answer is the only time it is shown',
        description: `A signed-in person only (not with a token). \`expiresInDays\` from ${TOKEN_DAYS_MIN} to ${TOKEN_DAYS_MAX}.`,
        security: [{ session: [] }],
        requestBody: { required: true, content: json(jsonSchema(CreateTokenBody)) },
        responses: {
          '201': ok('Made', jsonSchema(CreatedToken)),
          '400': refusal('A name or a number of days out of bounds'),
          ...GUARDED,
          '409': refusal('The person holds the most tokens they may'),
          '413': refusal('The body is larger than 4 KB'),
        },
      },
    },
    '/__console/tokens/all': {
      get: {
        tags: ['tokens'],
        operationId: 'list_all_tokens',
        summary: "Everyone's personal API tokens (admins)",
        security: [{ session: [] }],
        responses: { '200': ok('The tokens', jsonSchema(TokenList)), ...GUARDED },
      },
    },
    '/__console/tokens/{id}': {
      delete: {
        tags: ['tokens'],
        operationId: 'revoke_token',
        summary: 'Revoke a token: its next request gets 401 (its own person, or an admin)',
        security: [{ session: [] }],
        parameters: [pathId('id', "The token's id (not the token)")],
        responses: {
          '200': ok('Revoked', { type: 'object', properties: { revoked: { type: 'string' } } }),
          ...GUARDED,
          '404': refusal("No such token (or another person's, for anyone but an admin)"),
          '409': refusal('Already revoked'),
        },
      },
    },
  };
}
