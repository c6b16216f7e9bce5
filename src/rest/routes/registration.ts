import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { RestEnv } from '../env.js';
import { errors, ok } from '../schemas/common.js';

const startRoute = createRoute({
  method: 'post',
  path: '/register/start',
  operationId: 'startRegistration',
  tags: ['Account'],
  summary: 'Email a one-time registration link (no key, 0 requests)',
  description:
    'Emails a one-time link `{site_url}/confirm?token=…`; the token is also in the mail. An address that already has an account is sent its existing key instead and nothing is created. The answer is the same either way. At most 5 attempts per address per hour (429 after).',
 
  request: { body: { required: true, content: { 'application/json': { schema: z.object({ email: z.string().openapi({ format: 'email', maxLength: 254, example: 'you@example.com' }) }).strict() } } } },
  responses: {
    200: ok(z.object({ ok: z.boolean(), message: z.string() }), 'Mail queued'),
    ...errors({ 400: 'Invalid email address.', 429: 'Too many attempts for this address (`too_many_attempts`); `Retry-After` gives the seconds until the next is allowed.' }),
  },
});

const confirmRoute = createRoute({
  method: 'post',
  path: '/register/confirm',
  operationId: 'confirmRegistration',
  tags: ['Account'],
  summary: 'Spend the emailed token and get the key (no key, 0 requests)',
  description: 'The first confirmation creates the account and grants 10 credits (`created: true`). Tokens are single use and expire after 24 hours.',
 
  request: { body: { required: true, content: { 'application/json': { schema: z.object({ token: z.string().min(1).max(200) }).strict() } } } },
  responses: {
    200: ok(z.object({ key: z.string(), credits: z.number().int(), created: z.boolean() }), 'The account key'),
    ...errors({ 400: 'Invalid, expired or already used token.' }),
  },
});

export function registerRegistrationRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(startRoute, async (c) => {
    const { email } = c.req.valid('json');
    return c.json(await c.get('services').registration.start(email), 200);
  });
  api.openapi(confirmRoute, async (c) => {
    const { token } = c.req.valid('json');
    return c.json(await c.get('services').registration.confirm(token), 200);
  });
}
