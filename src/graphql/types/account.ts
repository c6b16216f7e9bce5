import { meShape, usageShape } from '../../wire/account-shapes.js';
import { plans } from '../../core/pricing.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { requireActor } from '../require-actor.js';
import { shapeType } from '../shape-type.js';

const MeRef = shapeType(meShape);
const UsageRef = shapeType(usageShape);

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
  billingPortal: t.field({ ...operation('openBillingPortal'), type: PortalResult, description: "The payment provider's billing portal.", resolve: (_r, _a, ctx) => ctx.services.billing.portal(requireActor(ctx)) }),
}));
