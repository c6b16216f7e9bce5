import type { Hono } from 'hono';
import type { RestEnv } from '../rest/env.js';
import { accountJs } from './assets/account-js.js';
import { episodeJs } from './assets/episode-js.js';
import { episodeWaitJs } from './assets/episode-wait-js.js';
import { formsJs } from './assets/forms-js.js';
import { siteCss } from './assets/site-css.js';

const JS = 'text/javascript; charset=utf-8';

/** The site's own stylesheet and scripts: every file its pages load comes from Podtext itself. */
export function registerAssetRoutes(app: Hono<RestEnv>): void {
  app.get('/assets/site.css', (c) => c.body(siteCss, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=300' }));
  app.get('/assets/episode.js', (c) => c.body(episodeJs, 200, { 'content-type': JS, 'cache-control': 'public, max-age=300' }));
  app.get('/assets/forms.js', (c) => c.body(formsJs, 200, { 'content-type': JS, 'cache-control': 'public, max-age=300' }));
  app.get('/assets/episode-wait.js', (c) => c.body(episodeWaitJs, 200, { 'content-type': JS, 'cache-control': 'public, max-age=300' }));
  app.get('/assets/account.js', (c) => c.body(accountJs, 200, { 'content-type': JS, 'cache-control': 'public, max-age=300' }));
}
