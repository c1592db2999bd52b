import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { refusal } from './refusal';

describe('refusal', () => {
  it('answers the status with its reason and any extra fields, never cached', async () => {
    const app = new Hono();
    app.get('/', (c) => refusal(c, 409, 'The board changed meanwhile', { field: 'name' }));
    app.get('/plain', (c) => refusal(c, 404, 'No such board'));
    const answer = await app.request('/');
    expect(answer.status).toBe(409);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({ code: 409, msg: 'The board changed meanwhile', field: 'name' });
    expect(await (await app.request('/plain')).json()).toEqual({ code: 404, msg: 'No such board' });
  });
});
