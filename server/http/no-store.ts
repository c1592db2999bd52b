/** Headers of an answer no cache may keep: it depends on who asks, or changes from one moment to the next. */
export const NO_STORE = { 'cache-control': 'no-store' };
