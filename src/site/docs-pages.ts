import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { RestEnv } from '../rest/env.js';

const require = createRequire(import.meta.url);

/** swagger-ui-dist's files, served from the installed package: no CDN. */
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const docsInit = `window.addEventListener('load', () => {
  // No deep-link anchors inside the operation buttons (interactive content nested in a button),
  // and no outside validator badge.
  window.ui = SwaggerUIBundle({
    url: '/openapi.json', dom_id: '#swagger', deepLinking: false, validatorUrl: null, tryItOutEnabled: false, docExpansion: 'list', defaultModelsExpandDepth: -1,
    onComplete: () => { const s = document.getElementById('servers'); if (s) s.setAttribute('aria-label', 'Server'); },
  });
});`;

/** `/docs`: the API reference rendered from openapi.json by Swagger UI. */
export function registerDocsPages(app: Hono<RestEnv>): void {
  const files = new Map<string, Buffer>();
  const dir = require.resolve('swagger-ui-dist/package.json').replace(/package\.json$/, '');
  for (const name of Object.keys(SWAGGER_FILES)) files.set(name, readFileSync(dir + name));
  app.get('/assets/swagger/:file', (c) => {
    const name = c.req.param('file');
    const body = files.get(name);
    if (!body) return c.notFound();
    return c.body(new Uint8Array(body), 200, { 'content-type': SWAGGER_FILES[name]!, 'cache-control': 'public, max-age=86400' });
  });
  app.get('/assets/docs.js', (c) => c.body(docsInit, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  app.get('/docs', (c) =>
    c.html(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>API reference · Podtext</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/swagger/swagger-ui.css">
<link rel="stylesheet" href="/assets/site.css">
<style>.swagger-ui .info{margin:1rem 0}.swagger-ui .topbar{display:none}
/* Swagger UI's stock colours fall short of WCAG AA contrast: darker text, same look. */
.swagger-ui .info .title small,.swagger-ui .info .title small pre{background:#2f3540!important;color:#fff!important}
.swagger-ui .info a,.swagger-ui .info .url{color:#1d3fbf!important}
.swagger-ui .btn.authorize,.swagger-ui .btn.authorize span{color:#0f5a35!important;border-color:#0f5a35!important}
.swagger-ui .btn.authorize svg{fill:#0f5a35!important}
.swagger-ui .opblock .opblock-summary-method{color:#000!important}
.swagger-ui .opblock-tag small,.swagger-ui .opblock .opblock-summary-description,.swagger-ui .opblock .opblock-summary-operation-id{color:#2f3540!important}
.swagger-ui .opblock.opblock-deprecated .opblock-summary-method{color:#fff!important}
.swagger-ui .models h4,.swagger-ui .model-title,.swagger-ui .model{color:#2f3540!important}
.swagger-ui .prop-type{color:#4a2a91!important}
.swagger-ui .json-schema-2020-12__title,.swagger-ui .json-schema-2020-12-expand-deep-button,.swagger-ui .json-schema-2020-12__attribute,.swagger-ui .json-schema-2020-12-keyword__name,.swagger-ui .json-schema-2020-12-keyword__value{color:#2f3540!important}
.swagger-ui .model-toggle:after{opacity:1}
</style>
</head><body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><nav aria-label="Site"><a class="brand" href="/">Podtext</a><a href="/">Search</a><a href="/docs" aria-current="page">API docs</a><a href="/graphql">GraphQL</a><a href="/account">Account</a></nav></header>
<main id="main" tabindex="-1"><h1>Podtext API reference</h1>
<p>REST under <code>/api/v1</code>, described by <a href="/openapi.json">openapi.json</a>. GraphQL: <a href="/graphql">/graphql</a>.</p>
<div id="swagger"></div></main>
<script src="/assets/swagger/swagger-ui-bundle.js"></script>
<script src="/assets/docs.js"></script>
</body></html>`),
  );
}
