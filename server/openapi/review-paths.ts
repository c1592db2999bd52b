// The paths of reviews in the OpenAPI description: decisions and comments on a result.
import { reviewChangeSchema, reviewViewSchema } from '../../src/api/review-schema';
import { envelope, GUARDED, json, jsonSchema, ok, pathId, refusal } from './schema-parts';

/** A result's review: read it, change it, delete a comment. */
export function reviewPaths() {
  return {
    '/__console/reviews/{id}': {
      get: {
        tags: ['reviews'],
        operationId: 'get_review',
        summary: "A result's decisions (one per person, newest first) and comments (oldest first)",
        parameters: [pathId('id', 'The task id')],
        responses: { '200': ok('The review', envelope(reviewViewSchema)), ...GUARDED },
      },
      post: {
        tags: ['reviews'],
        operationId: 'review_result',
        summary:
          'Set or clear your decision (the latest wins) and/or add a comment; viewers too. Answers the review.',
        parameters: [pathId('id', 'The task id')],
        requestBody: { required: true, content: json(jsonSchema(reviewChangeSchema)) },
        responses: {
          '200': ok('The review after the change', envelope(reviewViewSchema)),
          '400': refusal(
            'No comment and no decision, a comment too long, or the result holds the most comments',
          ),
          ...GUARDED,
          '404': refusal('The record has no such task'),
          '413': refusal('The body is larger than a review can be'),
        },
      },
    },
    '/__console/reviews/{id}/comments/{comment}': {
      delete: {
        tags: ['reviews'],
        operationId: 'delete_review_comment',
        summary: 'Delete a comment: your own, or any for an admin. Answers the review.',
        parameters: [pathId('id', 'The task id'), pathId('comment', "The comment's id")],
        responses: {
          '200': ok('The review after the deletion', envelope(reviewViewSchema)),
          ...GUARDED,
          '403': refusal("Another person's comment, and you are no admin"),
          '404': refusal('No such comment on that task'),
        },
      },
    },
  };
}
