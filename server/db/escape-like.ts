// One rule for both sides: the browser's view rules (src/api) build LIKE patterns too.
export { escapeLike } from '../../src/api/escape-like';
