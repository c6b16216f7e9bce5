import type { OpenAPIHono } from '@hono/zod-openapi';
import { errorStatus } from '../core/errors.js';
import { planNames, plans, priceTable } from '../core/pricing.js';
import type { RestEnv } from './env.js';
import { withOperationsPaths } from './operations-openapi.js';
import { MAX_BODY_BYTES, rateLimitHeaders } from './schemas/common.js';

/** The fixed address used in the committed schema/openapi.json. */
export const DOCUMENT_SITE_URL = 'http://localhost:8080';

function description(): string {
  const priceRows = priceTable.map((p) => `| ${p.action} | ${p.credits} |`).join('\n');
  const planRows = planNames
    .map((n) => plans[n])
    .map((p) => `| ${p.title} (\`${p.name}\`) | ${p.monthlyCredits} | $${p.priceUsd} | ${p.dailyRequests} |`)
    .join('\n');
  const codeRows = Object.entries(errorStatus).map(([code, status]) => `| \`${code}\` | ${status} |`).join('\n');
  return [
    'Podtext: podcast discovery, transcripts (JSON, text, SRT, VTT, word timings), transcription jobs, credits, webhooks and AI Search.',
    '',
    'Every call made with a key counts 1 request against the daily allowance (UTC day), whatever its answer: success, 400, 402, 404 (unknown paths under `/api/v1` included), 405, 409, 413 or 429; reading the public sample with a key counts 1 too. Calls without a key count 0, and the two registration calls never count. A key that matches no account (401), or two different keys (400), counts nothing: there is no account to count against. One credit is one hour of audio.',
    '',
    '`X-RateLimit-Limit` and `X-RateLimit-Remaining` are on every answer under `/api/v1`; calls counted against no account (keyless calls, 401s) report the Free allowance untouched (1000 and 1000). A header sent twice (`Authorization` or `X-Api-Key`) is refused with 400. An answer given before a request body was read (413 among them) says `Connection: close`.',
    '',
    'Pages on any origin may call the API from a browser with a key in a header (CORS): answers to a request with `Origin` carry `Access-Control-Allow-Origin: *` and expose the rate-limit headers, `Retry-After`, `ETag` and `Allow`; a preflight learns the route\'s methods and may send `Authorization`, `X-Api-Key`, `Content-Type` and `If-None-Match`. Keys never travel in cookies, so a page can only use a key it was given.',
    '',
    '## Credit prices',
    '| Action | Credits |',
    '|---|---|',
    priceRows,
    '',
    '## Plans',
    '| Plan | Credits per cycle | Price per month | Requests per day |',
    '|---|---|---|---|',
    planRows,
    '',
    'Buying a plan: `POST /billing/checkout` with `{"plan": "plus" | "pro" | "business"}` answers `{url}`, a hosted checkout page (an addition to the spec; 409 `billing_not_configured` where the server sells no plans). ' +
      'Once paid, the plan and its daily allowance apply at once and the balance becomes the plan\'s credits; each renewal resets it (no rollover); an upgrade tops it up at once. ' +
      '`POST /billing/portal` answers `{url}` of the billing portal (switch plan, cancel, update card) for a key whose account has subscribed, now or before; 400 `not_subscribed` otherwise. ' +
      'A cancelled plan runs to the end of its paid period, then the account is Free.',
    '',
    '## Errors',
    'Every error answers `{"error": {"code", "message"}}`; malformed input names the field in the message (`"field: message"`).',
    '',
    'While the database is unreachable (a restart, a failover, refused connections) a call that needs it answers 503 `unavailable` with `Retry-After` in seconds; nothing it asked for was done. A key no server process has checked yet gets no rate-limit figures then, since none could be read; GraphQL answers the same code, status and header.',
    '',
    '| code | status |',
    '|---|---|',
    codeRows,
  ].join('\n');
}

/** OpenAPI 3.1 of `/api/v1`, generated from the route definitions and the price table. */
export function openApiDocument(api: OpenAPIHono<RestEnv>, siteUrl: string) {
  const doc = api.getOpenAPI31Document({
    openapi: '3.1.0',
    info: { title: 'Podtext API', version: '1.0.0', description: description() },
    servers: [{ url: `${siteUrl}/api/v1` }],
  });
  return withOperationsPaths(withBodyLimit(doc), siteUrl);
}

/** Every POST under /api/v1 passes the one body limit first (see http-app.ts), so each may answer 413. */
function withBodyLimit<T extends { paths?: object }>(doc: T): T {
  const tooLarge = {
    description: `The body is larger than ${MAX_BODY_BYTES / (1024 * 1024)} MB (\`payload_too_large\`); nothing was done.`,
    headers: rateLimitHeaders,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  for (const item of Object.values(doc.paths ?? {}) as { post?: { responses?: Record<string, unknown> } }[]) {
    if (item.post?.responses && !item.post.responses['413']) item.post.responses['413'] = tooLarge;
  }
  return doc;
}

/** A language-model summary of the same document. */
export function llmsText(doc: ReturnType<typeof openApiDocument>, siteUrl: string): string {
  const lines = ['# Podtext API', '', `> Base URL: ${siteUrl}/api/v1. OpenAPI: ${siteUrl}/openapi.json.`, '', doc.info.description ?? '', '', '## Endpoints'];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, { summary?: string; operationId?: string; security?: unknown[] }>)) {
      if (!op || typeof op !== 'object' || !('operationId' in op)) continue;
      // An empty requirement beside the key schemes: the key is optional (the public sample).
      const auth = !op.security?.length ? 'no key' : op.security.some((r) => Object.keys(r as object).length === 0) ? 'key; none for the public sample' : 'key';
      lines.push(`- ${method.toUpperCase()} ${path} (${auth}): ${op.summary ?? op.operationId}`);
    }
  }
  lines.push('', '## Authentication', 'Send the key as `Authorization: Bearer <key>` or `X-Api-Key: <key>`. Get one with POST /register/start then POST /register/confirm.');
  return `${lines.join('\n')}\n`;
}
