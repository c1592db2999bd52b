// The paths of share links in the OpenAPI description: links to a board or a request.
import { CreatedShare, CreateShareBody, ShareList } from '../../src/api/share-schemas';
import { SHARE_DAYS_DEFAULT, SHARE_DAYS_MAX, SHARE_DAYS_MIN } from '../../src/api/shares';
import { GUARDED, json, jsonSchema, ok, pathId, refusal } from './schema-parts';

/** The live share links: list them, make one, revoke one. */
export function sharePaths() {
  return {
    '/__console/shares': {
      get: {
        tags: ['shares'],
        operationId: 'list_shares',
        summary: "The live share links: one's own; an admin's list holds everyone's",
        parameters: [
          {
            name: 'board',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'Only this board’s',
          },
          {
            name: 'request',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'Only this request’s',
          },
        ],
        responses: { '200': ok('The links, never their tokens', jsonSchema(ShareList)), ...GUARDED },
      },
      post: {
        tags: ['shares'],
        operationId: 'create_share',
        summary: 'Share a board or a request: the answer holds the link, the only time it is shown',
        description: `Creators and admins. Send \`board\` or \`request\` (an id) and \`expiresInDays\`, from ${SHARE_DAYS_MIN} to ${SHARE_DAYS_MAX} (${SHARE_DAYS_DEFAULT} when absent). The link opens a read-only page of the shared results for anyone who has it, with no account.`,
        requestBody: { required: true, content: json(jsonSchema(CreateShareBody)) },
        responses: {
          '201': ok('Made', jsonSchema(CreatedShare)),
          '400': refusal('Neither or both of board and request, or a number of days out of bounds'),
          ...GUARDED,
          '404': refusal('No such board or request'),
          '409': refusal('The team holds the most live links it may'),
          '413': refusal('The body is larger than 4 KB'),
        },
      },
    },
    '/__console/shares/{id}': {
      delete: {
        tags: ['shares'],
        operationId: 'revoke_share',
        summary: 'Revoke a share link: it answers 404 from now on (its maker, or an admin)',
        parameters: [pathId('id', "The link's id (not its token)")],
        responses: {
          '200': ok('Revoked', { type: 'object' }),
          ...GUARDED,
          '404': refusal('No such live link'),
        },
      },
    },
  };
}
