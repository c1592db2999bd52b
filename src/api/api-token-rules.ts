// The bounds of personal API tokens as plain values: the People screen checks a new token's fields
// with them without loading zod; ./api-tokens.ts builds the schemas the server enforces from them.

/** Every console token starts so, which tells it apart from the service's API_TOKEN at a glance. */
export const API_TOKEN_PREFIX = 'mct_';
export const TOKEN_NAME_MAX = 100;
export const TOKEN_DAYS_MIN = 1;
export const TOKEN_DAYS_MAX = 365;
/** Tokens a person may hold at once (not revoked, not expired). */
export const TOKENS_PER_PERSON_MAX = 20;
