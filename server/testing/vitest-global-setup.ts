// Vitest's global set-up: one migrated PGlite for the whole run, copied by every test database.
import { makePgliteTemplate } from './pglite-template';

export default async function setup(): Promise<() => void> {
  return makePgliteTemplate();
}
