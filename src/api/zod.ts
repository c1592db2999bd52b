// Every schema module imports zod through here so the jitless setting is applied before any schema
// is built: the production Content-Security-Policy forbids `unsafe-eval`, which zod's JIT would need.
import * as z from 'zod/mini';

z.config({ jitless: true });

export { z };
