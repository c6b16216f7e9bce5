import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { INBOX_MAX_BODY_BYTES, INBOX_MAX_DELIVERIES, INBOX_MAX_PER_ACCOUNT, type InboxDelivery } from '../../core/webhooks/test-inbox.js';
import { MAX_DEPTH, nestedDeeperThan } from '../../core/door/bad-input.js';
import type { RestEnv } from '../env.js';
import { errorBody } from '../error-response.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';
import { inboxShape } from '../../wire/webhook-shapes.js';

const eventDocs = [
  'Podtext sends `job.done` as a POST with the JSON body `{event: "job.done", job, sent_at}` to the job\'s `webhook_url`.',
  `Headers: \`X-Service-Event: job.done\`; \`X-Service-Job: <job id>\` (the job's uuid); \`X-Service-Delivery: <uuid>\`, the same on every attempt of one event (use it to drop duplicates); \`X-Service-Signature: t=<unix seconds>,v1=<hex>\`, where \`t\` is this attempt's time and \`sent_at\` its ISO form.`,
  'Success is a 2xx answer within 30 seconds. Any other status (redirects are not followed), a time-out or a refused connection is retried after 1, 5, 15, 60 and 240 minutes; then delivery stops and the job stays pollable. Only the status is read: the body of an answer is not.',
  'Only https URLs are accepted, and only public addresses, checked when the URL is given and again at every attempt.',
].join('\n\n');

const SecretSchema = z
  .object({
    secret: z.string().openapi({ example: 'whsec_1cN8x…' }),
    header: z.string().openapi({ example: 'X-Service-Signature' }),
    scheme: z.string().openapi({ description: 'How the signature is made and checked.' }),
  })
  .openapi('WebhookSecret');

const InboxDeliverySchema = z
  .object({
    received_at: z.string().openapi({ format: 'date-time' }),
    headers: z.record(z.string(), z.string()).openapi({ description: 'Request headers as received, names lower-case.' }),
    body: z.unknown().openapi({ description: `The body parsed as JSON, or the text when it is not JSON or nests deeper than ${MAX_DEPTH} levels.` }),
    raw_body: z.string().openapi({ description: 'The body exactly as received: verify the signature over this.' }),
  })
  .openapi('WebhookInboxDelivery');

/** The `webhook` field a job carries when it has a `webhook_url` (for the jobs routes to embed). */
export const WebhookDeliverySchema = z
  .object({
    state: z.enum(['pending', 'delivered', 'failed']).openapi({ description: '`pending` until a 2xx (`delivered`) or the last retry failed (`failed`).' }),
    attempts: z.array(
      z.object({
        at: z.string().openapi({ format: 'date-time', description: 'When the attempt started; its signature `t`.' }),
        status: z.number().int().nullable().openapi({ description: "The receiver's HTTP status; null when none came." }),
        error: z.string().nullable().openapi({ description: 'Why the attempt failed (status, time-out, refused address …); null on success.' }),
        duration_ms: z.number().int(),
      }),
    ),
    next_attempt_at: z.string().nullable().openapi({ format: 'date-time', description: 'When the next attempt is due; null once delivered or failed.' }),
  })
  .openapi('WebhookDelivery');

const JobDoneEventSchema = z
  .object({
    event: z.literal('job.done'),
    job: z.object({
      id: z.string().openapi({ format: 'uuid' }),
      status: z.literal('done'),
      poll_url: z.string(),
      episodes: z.array(
        z.object({ transcript_id: z.string(), title: z.string(), status: z.string(), url: z.string().nullable(), transcript_url: z.string().nullable() }),
      ),
      done: z.number().int(),
      total: z.number().int(),
    }),
    sent_at: z.string().openapi({ format: 'date-time', description: "This attempt's time, as `t` in the signature." }),
  })
  .openapi('JobDoneEvent');

const jobDoneWebhook = {
  method: 'post' as const,
  path: 'job.done',
  operationId: 'jobDone',
  tags: ['Webhooks'],
  summary: 'Sent to the webhook_url of a job when every episode has settled',
  description: eventDocs,
  request: {
    headers: z.object({
      'X-Service-Event': z.literal('job.done'),
      'X-Service-Job': z.string().openapi({ format: 'uuid', description: "The job's id." }),
      'X-Service-Delivery': z.string().openapi({ format: 'uuid', description: 'The same on every attempt of one event.' }),
      'X-Service-Signature': z.string().openapi({ example: 't=1767225600,v1=5d41402abc4b2a76b9719d911017c592…' }),
    }),
    body: { required: true, content: { 'application/json': { schema: JobDoneEventSchema } } },
  },
  responses: { 200: { description: 'Any 2xx within 30 seconds acknowledges the event.' } },
};

const getSecretRoute = createRoute({
  method: 'get', path: '/webhooks/secret', operationId: 'getWebhookSecret', tags: ['Webhooks'],
  summary: 'The signing secret of webhooks, created on the first call',
  description: eventDocs,
  security: keyed,
  responses: { 200: ok(SecretSchema, 'The secret and how signatures are made'), ...errors(keyedErrors) },
});

const rotateSecretRoute = createRoute({
  method: 'post', path: '/webhooks/secret', operationId: 'rotateWebhookSecret', tags: ['Webhooks'],
  summary: 'Replace the signing secret',
  description: 'For 24 hours after a rotation every delivery carries two `v1=` signatures, with the new and the previous secret, so receivers can switch without losing events.',
  security: keyed,
  responses: { 200: ok(z.object({ secret: z.string(), rotated: z.boolean().openapi({ description: 'False when the key had no secret yet: this one is the first, and nothing else signs.' }) }), 'The new secret'), ...errors(keyedErrors) },
});

const createInboxRoute = createRoute({
  method: 'post', path: '/webhooks/inbox', operationId: 'createWebhookInbox', tags: ['Webhooks'],
  summary: 'A hosted test receiver, valid for 24 hours',
  description: `Use its \`url\` as a \`webhook_url\`, or send to it with any HTTP client. It keeps the newest ${INBOX_MAX_DELIVERIES} requests; a body over 256 KB gets 413. A key keeps its newest ${INBOX_MAX_PER_ACCOUNT} inboxes: making another deletes the oldest.`,
  security: keyed,
  responses: { 200: ok(inboxShape.zod, 'The inbox'), ...errors(keyedErrors) },
});

const readInboxRoute = createRoute({
  method: 'get', path: '/webhooks/inbox/{id}', operationId: 'getWebhookInbox', tags: ['Webhooks'],
  summary: 'What a test inbox received, oldest first',
  security: keyed,
  request: { params: z.object({ id: z.string().openapi({ format: 'uuid' }) }) },
  responses: {
    200: ok(z.object({ expires_at: z.string().openapi({ format: 'date-time' }), deliveries: z.array(InboxDeliverySchema) }), 'Deliveries'),
    ...errors({ ...keyedErrors, 404: 'No such inbox for this key, or it has expired.' }),
  },
});

/** The body as JSON, or its text when it is not JSON or nests too deep to be written back (anyone may send to an inbox). */
function parsedBody(raw: string): unknown {
  try {
    const body: unknown = JSON.parse(raw);
    return nestedDeeperThan(body, MAX_DEPTH) ? raw : body;
  } catch {
    return raw;
  }
}

function inboxDeliveryWire(d: InboxDelivery) {
  return { received_at: d.receivedAt.toISOString(), headers: d.headers, body: parsedBody(d.rawBody), raw_body: d.rawBody };
}

export function registerWebhookRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openAPIRegistry.registerWebhook(jobDoneWebhook);
  api.openapi(getSecretRoute, async (c) => c.json(await c.get('services').webhooks.getSecret(c.get('actor')), 200));
  api.openapi(rotateSecretRoute, async (c) => c.json(await c.get('services').webhooks.rotateSecret(c.get('actor')), 200));
  api.openapi(createInboxRoute, async (c) => {
    const services = c.get('services');
    return c.json(inboxShape.toWire(await services.webhooks.createInbox(c.get('actor')), services), 200);
  });
  api.openapi(readInboxRoute, async (c) => {
    const inbox = await c.get('services').webhooks.readInbox(c.get('actor'), c.req.valid('param').id);
    return c.json({ expires_at: inbox.expiresAt.toISOString(), deliveries: inbox.deliveries.map(inboxDeliveryWire) }, 200);
  });
}

/**
 * The public side of test inboxes, `POST {site_url}/hooks/inbox/{id}`: no key,
 * any sender, answered 200 `{ok: true}`; 404 for an unknown or expired inbox,
 * 413 for a body over 256 KB (refused while reading, not after).
 */
export function registerInboxReceiver(app: Hono<RestEnv>): void {
  const limit = bodyLimit({ maxSize: INBOX_MAX_BODY_BYTES, onError: (c) => c.json(errorBody('payload_too_large', 'body: larger than 256 KB'), 413) });
  app.post('/hooks/inbox/:id', limit, async (c) => {
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => {
      headers[name] = value;
    });
    await c.get('services').webhooks.receiveInbox(c.req.param('id'), { headers, body: new Uint8Array(await c.req.arrayBuffer()) });
    return c.json({ ok: true }, 200);
  });
}

