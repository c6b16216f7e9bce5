import type { Me, UnlockView, Usage } from '../core/accounts/account-service.js';
import type { LedgerRow } from '../core/ledger.js';
import { planNames, plans } from '../core/pricing.js';
import { field, shape } from './shape.js';

const planDescription = `Plan name: ${planNames.join(', ')}.`;

export const unlockShape = shape<UnlockView>(
  { rest: 'Unlock', description: 'An episode this account unlocked (permanent, every format).' },
  {
    transcript: field.string('The unlocked transcript\'s id.', (u) => u.transcriptId, { graphql: 'transcriptId' }),
    unlocked_at: field.datetime('When it was unlocked.', (u) => u.unlockedAt),
    url: field.string('Where to read it.', (u, ctx) => ctx.links.transcript(u.transcriptId)),
  },
);

export const meShape = shape<Me>(
  { rest: 'Account', graphql: 'Me', description: 'The account behind the key.' },
  {
    credits: field.int('Current balance.', (m) => m.credits),
    plan: field.string(planDescription, (m) => m.plan),
    email: field.string('The account\'s address.', (m) => m.email, { nullable: true }),
    billing_managed: field.boolean('True when the plan is billed through the payment provider (the billing portal works).', (m) => m.billingManaged),
    unlocks: field.list(unlockShape, 'Every episode this account unlocked.', (m) => m.unlocks),
  },
);

export const ledgerEntryShape = shape<LedgerRow>(
  { rest: 'LedgerEntry', description: 'One immutable credit movement.' },
  {
    id: field.string(undefined, (e) => String(e.id)),
    kind: field.string('grant, charge, refund or cycle_reset.', (e) => e.kind, { values: ['grant', 'charge', 'refund', 'cycle_reset'] }),
    amount: field.int('Signed credits: negative for charges.', (e) => e.amount),
    balance_after: field.int('The balance right after this entry.', (e) => e.balanceAfter),
    reference: field.string('Unique idempotency reference, e.g. `unlock:<account>:<transcript>`.', (e) => e.reference),
    refund_of: field.string('For refunds: the id of the charge refunded.', (e) => (e.refundOf === null ? null : String(e.refundOf)), { nullable: true }),
    memo: field.string(undefined, (e) => e.memo),
    created_at: field.datetime(undefined, (e) => e.createdAt),
  },
);

export const usageShape = shape<Usage>(
  { rest: 'Usage', description: 'Allowance and balance this cycle, requests today, the ledger and recent unlocks.' },
  {
    plan: field.string(planDescription, (u) => u.plan),
    credits_allowance: field.int('Credits the plan grants each billing cycle (no rollover).', (u) => u.cycleCredits),
    credits_remaining: field.int('Credits left now (the balance).', (u) => u.creditsRemaining),
    cycle_started_at: field.datetime('When this billing cycle began.', (u) => u.cycleStartedAt),
    cycle_ends_at: field.datetime('When the balance is next reset to the allowance.', (u) => u.cycleEndsAt),
    requests_today: field.int('Keyed requests counted today (UTC).', (u) => u.requestsToday),
    request_limit: field.int(`Daily request allowance of the plan (Free ${plans.free.dailyRequests}).`, (u) => u.requestLimit),
    requests_remaining: field.int('Requests left today.', (u) => u.requestsRemaining),
    ledger: field.list(ledgerEntryShape, 'The 50 newest ledger entries, newest first.', (u) => u.ledger),
    recent_unlocks: field.list(unlockShape, 'The 20 newest unlocks.', (u) => u.recentUnlocks),
  },
);
