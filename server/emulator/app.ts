// TEMPORARY stub, replaced by the emulator work.
import { Hono } from 'hono';
export interface EmulatorOptions { timeScale: number }
export function createEmulator(_options: Partial<EmulatorOptions> = {}) {
  const app = new Hono();
  app.get('/emulator/health', (c) => c.json({ ok: true }));
  return { app, close: async () => {} };
}
