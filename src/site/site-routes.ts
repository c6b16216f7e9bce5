import type { Hono } from 'hono';
import type { RestEnv } from '../rest/env.js';
import { DomainError } from '../core/errors.js';
import { episodePage } from './episode-page.js';
import { confirmPage, homePage } from './pages.js';

/** The website: pages, /openapi.json and /llms.txt (generated once at start). */
export function registerSiteRoutes(app: Hono<RestEnv>, docs: { openapi: unknown; llms: string }, siteUrl: string): void {
  const openapiJson = JSON.stringify(docs.openapi);
  app.get('/', (c) => c.html(homePage(siteUrl)));
  app.get('/confirm', (c) => c.html(confirmPage()));
  app.get('/openapi.json', (c) => c.body(openapiJson, 200, { 'content-type': 'application/json; charset=utf-8' }));
  app.get('/llms.txt', (c) => c.text(docs.llms));
  app.get('/t/:id', async (c) => {
    try {
      return c.html(episodePage(await c.var.services.transcripts.pageInfo(c.req.param('id'))));
    } catch (err) {
      if (err instanceof DomainError) return c.html(`<!doctype html><title>Not found</title><p>${err.code === 'not_found' ? 'No such episode.' : 'Not a valid episode id.'}</p>`, 404);
      throw err;
    }
  });
  app.get('/healthz', (c) => c.json({ ok: true }));
}
