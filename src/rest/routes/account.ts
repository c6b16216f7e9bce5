import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { UnlockView } from '../../core/accounts/account-service.js';
import type { Links } from '../../core/links.js';
import { plans } from '../../core/pricing.js';
import type { RestEnv } from '../env.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';

const UnlockSchema = z
  .object({ transcript: z.string().openapi({ example: '0a1b2c3d4e5f6a7b' }), unlocked_at: z.string().openapi({ format: 'date-time' }), url: z.string() })
  .openapi('Unlock');

const MeSchema = z
  .object({
    credits: z.number().int().openapi({ description: 'Current balance' }),
    plan: z.string().openapi({ description: `Plan name: ${Object.keys(plans).join(', ')}` }),
    email: z.string().nullable(),
    billing_managed: z.boolean().openapi({ description: 'True when the plan is billed through the payment provider (the billing portal works).' }),
    unlocks: z.array(UnlockSchema),
  })
  .openapi('Account');

const LedgerEntrySchema = z
  .object({
    id: z.string(),
    kind: z.enum(['grant', 'charge', 'refund', 'cycle_reset']),
    amount: z.number().int().openapi({ description: 'Signed credits: negative for charges.' }),
    balance_after: z.number().int(),
    reference: z.string().openapi({ description: 'Unique idempotency reference, e.g. `unlock:<account>:<transcript>`.' }),
    refund_of: z.string().nullable().openapi({ description: 'For refunds: the id of the charge refunded.' }),
    memo: z.string(),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('LedgerEntry');

const UsageSchema = z
  .object({
    plan: z.string(),
    credits_allowance: z.number().int().openapi({ description: 'Credits the plan grants each billing cycle (no rollover).' }),
    credits_remaining: z.number().int().openapi({ description: 'Credits left now (the balance).' }),
    cycle_started_at: z.string().openapi({ format: 'date-time' }),
    cycle_ends_at: z.string().openapi({ format: 'date-time', description: 'When the balance is next reset to the allowance.' }),
    requests_today: z.number().int().openapi({ description: 'Keyed requests counted today (UTC).' }),
    request_limit: z.number().int().openapi({ description: 'Daily request allowance of the plan.' }),
    requests_remaining: z.number().int(),
    ledger: z.array(LedgerEntrySchema).openapi({ description: 'The 50 newest ledger entries, newest first.' }),
    recent_unlocks: z.array(UnlockSchema).openapi({ description: 'The 20 newest unlocks.' }),
  })
  .openapi('Usage');

function unlockWire(u: UnlockView, links: Links) {
  return { transcript: u.transcriptId, unlocked_at: u.unlockedAt.toISOString(), url: links.transcript(u.transcriptId) };
}

const meRoute = createRoute({
  method: 'get', path: '/me', operationId: 'getMe', tags: ['Account'], summary: 'The account behind the key',
  security: keyed,
  responses: { 200: ok(MeSchema, 'The account'), ...errors(keyedErrors) },
});

const usageRoute = createRoute({
  method: 'get', path: '/usage', operationId: 'getUsage', tags: ['Account'],
  summary: 'Allowance and balance this cycle, requests today, the ledger and recent unlocks',
  security: keyed,
  responses: { 200: ok(UsageSchema, 'Usage'), ...errors(keyedErrors) },
});

const rotateRoute = createRoute({
  method: 'post', path: '/key/rotate', operationId: 'rotateKey', tags: ['Account'],
  summary: 'Retire this key at once and issue a new one',
  description: 'The old key fails on the very next request. Credits, plan and unlocks move across.',
  security: keyed,
  responses: { 200: ok(z.object({ key: z.string() }), 'The new key'), ...errors(keyedErrors) },
});

const portalRoute = createRoute({
  method: 'post', path: '/billing/portal', operationId: 'openBillingPortal', tags: ['Account'],
  summary: "The payment provider's billing portal: switch plan, cancel, update card",
  security: keyed,
  responses: { 200: ok(z.object({ url: z.string() }), 'Portal URL'), ...errors({ ...keyedErrors, 400: 'The key has never subscribed.' }) },
});

export function registerAccountRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(meRoute, async (c) => {
    const me = await c.var.services.accounts.me(c.var.actor);
    const links = c.var.services.links;
    return c.json(
      { credits: me.credits, plan: me.plan, email: me.email, billing_managed: me.billingManaged, unlocks: me.unlocks.map((u) => unlockWire(u, links)) },
      200,
    );
  });
  api.openapi(usageRoute, async (c) => {
    const u = await c.var.services.accounts.usage(c.var.actor);
    const links = c.var.services.links;
    return c.json(
      {
        plan: u.plan,
        credits_allowance: u.cycleCredits,
        credits_remaining: u.creditsRemaining,
        cycle_started_at: u.cycleStartedAt.toISOString(),
        cycle_ends_at: u.cycleEndsAt.toISOString(),
        requests_today: u.requestsToday,
        request_limit: u.requestLimit,
        requests_remaining: u.requestsRemaining,
        ledger: u.ledger.map((e) => ({
          id: String(e.id), kind: e.kind, amount: e.amount, balance_after: e.balanceAfter, reference: e.reference,
          refund_of: e.refundOf === null ? null : String(e.refundOf), memo: e.memo, created_at: e.createdAt.toISOString(),
        })),
        recent_unlocks: u.recentUnlocks.map((x) => unlockWire(x, links)),
      },
      200,
    );
  });
  api.openapi(rotateRoute, async (c) => c.json(await c.var.services.keys.rotate(c.var.actor), 200));
  api.openapi(portalRoute, async (c) => c.json(await c.var.services.accounts.billingPortal(c.var.actor), 200));
}
