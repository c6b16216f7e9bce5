import type { WebhookAttemptView, WebhookDeliveryView } from '../../core/webhooks/delivery-log.js';
import type { InboxDelivery } from '../../core/webhooks/test-inbox.js';
import { inboxShape } from '../../wire/webhook-shapes.js';
import { builder } from '../builder.js';
import { JobRef } from './job.js';
import { operation } from '../operation-field.js';
import { requireActor } from '../require-actor.js';
import { shapeType } from '../shape-type.js';

const WebhookSecretRef = builder.objectRef<{ secret: string; header: string; scheme: string }>('WebhookSecret').implement({
  description: 'The secret that signs job.done webhooks.',
  fields: (t) => ({
    secret: t.exposeString('secret'),
    header: t.exposeString('header', { description: 'X-Service-Signature' }),
    scheme: t.exposeString('scheme', { description: 'How the signature is made and checked.' }),
  }),
});

const RotatedSecretRef = builder.objectRef<{ secret: string; rotated: boolean }>('RotateWebhookSecretResult').implement({
  fields: (t) => ({ secret: t.exposeString('secret'), rotated: t.exposeBoolean('rotated', { description: 'False when the key had no secret yet: this one is the first, and nothing else signs.' }) }),
});

const InboxRef = shapeType(inboxShape);

const HeaderRef = builder.objectRef<[string, string]>('HttpHeader').implement({
  fields: (t) => ({ name: t.string({ resolve: (h) => h[0] }), value: t.string({ resolve: (h) => h[1] }) }),
});

const InboxDeliveryRef = builder.objectRef<InboxDelivery>('WebhookInboxDelivery').implement({
  description: 'One request a test inbox received.',
  fields: (t) => ({
    receivedAt: t.expose('receivedAt', { type: 'DateTime' }),
    headers: t.field({ type: [HeaderRef], description: 'Request headers as received, names lower-case.', resolve: (d) => Object.entries(d.headers) }),
    body: t.string({ description: 'The body exactly as received (JSON text for a webhook): verify the signature over this.', resolve: (d) => d.rawBody }),
  }),
});

const InboxContentsRef = builder.objectRef<{ expiresAt: Date; deliveries: InboxDelivery[] }>('WebhookInboxContents').implement({
  fields: (t) => ({
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    deliveries: t.field({ type: [InboxDeliveryRef], description: 'Oldest first; the newest 100 are kept.', resolve: (x) => x.deliveries }),
  }),
});

const WebhookAttemptRef = builder.objectRef<WebhookAttemptView>('WebhookAttempt').implement({
  fields: (t) => ({
    at: t.expose('at', { type: 'DateTime', description: "When the attempt started; its signature's t." }),
    status: t.exposeInt('status', { nullable: true, description: "The receiver's HTTP status; null when none came." }),
    error: t.exposeString('error', { nullable: true, description: 'Why the attempt failed; null on success.' }),
    durationMs: t.exposeInt('durationMs'),
  }),
});

/** The webhook state of a job, for the Job type to expose as `webhook`. */
export const WebhookDeliveryRef = builder.objectRef<WebhookDeliveryView>('WebhookDelivery').implement({
  description: 'The job.done webhook of a job: attempts so far and what comes next.',
  fields: (t) => ({
    state: t.exposeString('state', { description: 'pending, delivered or failed' }),
    attempts: t.field({ type: [WebhookAttemptRef], resolve: (d) => d.attempts }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'Null once delivered or failed.' }),
  }),
});

builder.queryFields((t) => ({
  webhookSecret: t.field({ ...operation('getWebhookSecret'),
    type: WebhookSecretRef,
    description: 'The webhook signing secret, created on the first call (1 request).',
    resolve: (_r, _a, ctx) => ctx.services.webhooks.getSecret(requireActor(ctx)),
  }),
  webhookInbox: t.field({ ...operation('getWebhookInbox'),
    type: InboxContentsRef,
    description: 'What a test inbox of this account received (1 request).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => ctx.services.webhooks.readInbox(requireActor(ctx), String(id)),
  }),
}));

builder.mutationFields((t) => ({
  rotateWebhookSecret: t.field({ ...operation('rotateWebhookSecret'),
    type: RotatedSecretRef,
    description: 'Replaces the signing secret; the previous one also signs for 24 hours.',
    resolve: (_r, _a, ctx) => ctx.services.webhooks.rotateSecret(requireActor(ctx)),
  }),
  createWebhookInbox: t.field({ ...operation('createWebhookInbox'),
    type: InboxRef,
    description: 'A hosted test receiver, valid for 24 hours. A key keeps its newest 10: making another deletes the oldest.',
    resolve: (_r, _a, ctx) => ctx.services.webhooks.createInbox(requireActor(ctx)),
  }),
}));

builder.objectField(JobRef, 'webhook', (t) =>
  t.field({
    type: WebhookDeliveryRef,
    nullable: true,
    description:
      'The job.done webhook: each attempt with the receiver\'s status or the error, and when the next is due; null when the job has no webhook_url. A delivery that spent its retries stays here as failed.',
    resolve: (job, _a, ctx) => ctx.services.webhooks.webhookDelivery(job.id),
  }),
);
