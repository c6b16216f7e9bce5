import type { Me, UnlockView, Usage } from '../../core/accounts/account-service.js';
import { plans } from '../../core/pricing.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { requireActor } from '../require-actor.js';

const UnlockRef = builder.objectRef<UnlockView>('Unlock').implement({
  description: 'An episode this account unlocked (permanent, every format).',
  fields: (t) => ({
    transcriptId: t.exposeString('transcriptId'),
    unlockedAt: t.expose('unlockedAt', { type: 'DateTime' }),
    url: t.string({ resolve: (u, _a, ctx) => ctx.services.links.transcript(u.transcriptId) }),
  }),
});

const LedgerEntryRef = builder.prismaObject('LedgerEntry', {
  description: 'One immutable credit movement.',
  fields: (t) => ({
    id: t.string({ resolve: (e) => String(e.id) }),
    kind: t.exposeString('kind', { description: 'grant, charge, refund or cycle_reset' }),
    amount: t.exposeInt('amount', { description: 'Signed credits: negative for charges.' }),
    balanceAfter: t.exposeInt('balanceAfter'),
    reference: t.exposeString('reference', { description: 'Unique idempotency reference.' }),
    refundOf: t.string({ nullable: true, resolve: (e) => (e.refundOf === null ? null : String(e.refundOf)) }),
    memo: t.exposeString('memo'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const MeRef = builder.objectRef<Me>('Me').implement({
  description: 'The account behind the key.',
  fields: (t) => ({
    credits: t.exposeInt('credits', { description: 'Current balance.' }),
    plan: t.exposeString('plan', { description: `One of ${Object.keys(plans).join(', ')}.` }),
    email: t.exposeString('email', { nullable: true }),
    billingManaged: t.exposeBoolean('billingManaged'),
    unlocks: t.field({ type: [UnlockRef], resolve: (me) => me.unlocks }),
  }),
});

const UsageRef = builder.objectRef<Usage>('Usage').implement({
  fields: (t) => ({
    plan: t.exposeString('plan'),
    creditsAllowance: t.exposeInt('cycleCredits', { description: 'Credits the plan grants each billing cycle (no rollover).' }),
    creditsRemaining: t.exposeInt('creditsRemaining'),
    cycleStartedAt: t.expose('cycleStartedAt', { type: 'DateTime' }),
    cycleEndsAt: t.expose('cycleEndsAt', { type: 'DateTime' }),
    requestsToday: t.exposeInt('requestsToday'),
    requestLimit: t.exposeInt('requestLimit'),
    requestsRemaining: t.exposeInt('requestsRemaining'),
    ledger: t.field({ type: [LedgerEntryRef], resolve: (u) => u.ledger as never }),
    recentUnlocks: t.field({ type: [UnlockRef], resolve: (u) => u.recentUnlocks }),
  }),
});

const RegisterStartResult = builder.objectRef<{ ok: boolean; message: string }>('RegisterStartResult').implement({
  fields: (t) => ({ ok: t.exposeBoolean('ok'), message: t.exposeString('message') }),
});
const RegisterConfirmResult = builder.objectRef<{ key: string; credits: number; created: boolean }>('RegisterConfirmResult').implement({
  fields: (t) => ({ key: t.exposeString('key'), credits: t.exposeInt('credits'), created: t.exposeBoolean('created') }),
});
const KeyResult = builder.objectRef<{ key: string }>('RotateKeyResult').implement({ fields: (t) => ({ key: t.exposeString('key') }) });
const PortalResult = builder.objectRef<{ url: string }>('BillingPortalResult').implement({ fields: (t) => ({ url: t.exposeString('url') }) });

builder.queryFields((t) => ({
  me: t.field({ ...operation('getMe'), type: MeRef, description: 'The account behind the key (1 request).', resolve: (_r, _a, ctx) => ctx.services.accounts.me(requireActor(ctx)) }),
  usage: t.field({ ...operation('getUsage'), type: UsageRef, description: 'Allowance, requests today, ledger, recent unlocks (1 request).', resolve: (_r, _a, ctx) => ctx.services.accounts.usage(requireActor(ctx)) }),
}));

builder.mutationFields((t) => ({
  registerStart: t.field({ ...operation('startRegistration'),
    type: RegisterStartResult,
    description: 'Emails a one-time registration link (no key, 0 requests).',
    args: { email: t.arg.string({ required: true }) },
    resolve: (_r, { email }, ctx) => ctx.services.registration.start(email),
  }),
  registerConfirm: t.field({ ...operation('confirmRegistration'),
    type: RegisterConfirmResult,
    description: `Spends the emailed token; the first confirmation grants ${plans.free.monthlyCredits} credits (no key, 0 requests).`,
    args: { token: t.arg.string({ required: true }) },
    resolve: (_r, { token }, ctx) => ctx.services.registration.confirm(token),
  }),
  rotateKey: t.field({ ...operation('rotateKey'), type: KeyResult, description: 'Retires this key at once and issues a new one.', resolve: (_r, _a, ctx) => ctx.services.keys.rotate(requireActor(ctx)) }),
  billingPortal: t.field({ ...operation('openBillingPortal'), type: PortalResult, description: "The payment provider's billing portal.", resolve: (_r, _a, ctx) => ctx.services.accounts.billingPortal(requireActor(ctx)) }),
}));
