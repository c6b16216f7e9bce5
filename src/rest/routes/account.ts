import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { plans } from '../../core/pricing.js';
import { meShape, usageShape } from '../../wire/account-shapes.js';
import type { RestEnv } from '../env.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';

const MeSchema = meShape.zod;
const UsageSchema = usageShape.zod;

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
  description: 'Works for a key whose account has subscribed through `POST /billing/checkout`, now or before; key rotation keeps it.',
  responses: {
    200: ok(z.object({ url: z.string() }), 'Portal URL'),
    ...errors({ ...keyedErrors, 400: 'The key has never subscribed, or Stripe no longer has its customer (`not_subscribed`).', 409: 'Billing is not configured on this server (`billing_not_configured`).', 502: 'The payment provider could not be reached; try again.' }),
  },
});

export function registerAccountRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(meRoute, async (c) => c.json(meShape.toWire(await c.get('services').accounts.me(c.get('actor')), c.get('services')) as z.infer<typeof MeSchema>, 200));
  api.openapi(usageRoute, async (c) => c.json(usageShape.toWire(await c.get('services').accounts.usage(c.get('actor')), c.get('services')) as z.infer<typeof UsageSchema>, 200));
  api.openapi(rotateRoute, async (c) => c.json(await c.get('services').keys.rotate(c.get('actor')), 200));
  api.openapi(portalRoute, async (c) => c.json(await c.get('services').billing.portal(c.get('actor')), 200));
}
