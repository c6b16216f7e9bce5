import type { Hono } from 'hono';
import type { RestEnv } from '../rest/env.js';
import { confirmPage, homePage } from './pages.js';

/** The website: pages, /openapi.json and /llms.txt (generated once at start). */
export function registerSiteRoutes(app: Hono<RestEnv>, docs: { openapi: unknown; llms: string }, siteUrl: string): void {
  const openapiJson = JSON.stringify(docs.openapi);
  app.get('/', (c) => c.html(homePage(siteUrl)));
  app.get('/confirm', (c) => c.html(confirmPage()));
  app.get('/openapi.json', (c) => c.body(openapiJson, 200, { 'content-type': 'application/json; charset=utf-8' }));
  app.get('/llms.txt', (c) => c.text(docs.llms));
  app.get('/healthz', (c) => c.json({ ok: true }));
}
