import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { MemoRouter } from './memo-router.js';

describe('MemoRouter', () => {
  it('answers as Hono does, for a literal segment beside a parameter and for repeated calls', async () => {
    const app = new Hono({ router: new MemoRouter(8) });
    app.get('/shows/lookup', (c) => c.text('lookup'));
    app.get('/shows/:id', (c) => c.text(`show ${c.req.param('id')}`));
    app.post('/shows/:id', (c) => c.text(`post ${c.req.param('id')}`));
    for (let round = 0; round < 2; round++) {
      expect(await (await app.request('/shows/lookup')).text()).toBe('lookup');
      expect(await (await app.request('/shows/42')).text()).toBe('show 42');
      expect(await (await app.request('/shows/43')).text()).toBe('show 43');
      expect(await (await app.request('/shows/42', { method: 'POST' })).text()).toBe('post 42');
      expect((await app.request('/nothing')).status).toBe(404);
    }
  });

  it('remembers at most its size', () => {
    const router = new MemoRouter<string>(4);
    router.add('GET', '/t/:id', 'transcript');
    for (let i = 0; i < 100; i++) expect(router.match('GET', `/t/${i}`)[0][0]![0]).toBe('transcript');
    expect(router.remembered).toBe(4);
  });
});
