import { html } from 'hono/html';
import type { Me, UnlockView, Usage } from '../../core/accounts/account-service.js';
import type { JobView } from '../../core/jobs/job-view.js';
import { plans } from '../../core/pricing.js';
import { layout, type PageChrome } from '../layout.js';
import { stamp } from './format.js';

export interface AccountData {
  me: Me;
  /** The latest unlocks, with their titles where the episode is known. */
  unlocks: (UnlockView & { title?: string; showTitle?: string })[];
  usage: Usage;
  jobs: JobView[];
  webhookSecret: string;
  /** The header deliveries carry their signature in. */
  webhookHeader: string;
  inbox: { id: string; url: string; deliveries: number } | null;
  /** A key just issued by a rotation: shown this once. */
  newKey: string | null;
  flash: string | null;
  /** Whether a payment provider is configured (upgrade and portal buttons). */
  billingConfigured: boolean;
}

function csrfField(chrome: PageChrome) {
  return html`<input type="hidden" name="csrf" value="${chrome.csrf ?? ''}">`;
}

/** What a job's episode was not transcribed for, and whether credits came back (a job that joined another's paid nothing). */
export function failureNote(e: Pick<JobView['episodes'][number], 'error' | 'charged'>): string {
  return `not transcribed (${e.error ?? 'failed'}); ${e.charged > 0 ? 'refunded' : 'nothing was charged'}`;
}

function jobEpisode(e: JobView['episodes'][number]) {
  if (e.status === 'ready') return html`<a href="/t/${e.transcriptId}">${e.title}</a>`;
  if (e.status === 'failed') return html`${e.title} <span class="status failed">${failureNote(e)}</span>`;
  return e.title;
}

export function jobRow(j: JobView) {
  return html`<tr data-job-id="${j.id}"><td><code>${j.id.slice(0, 8)}</code></td><td>${j.episodes.map(jobEpisode).reduce((a, b) => html`${a}, ${b}`)}</td>
<td><span class="status ${j.status}" data-status="${j.status}">${j.status}</span> <span class="progress">${j.done}/${j.total}</span></td><td>${stamp(j.createdAt)}</td></tr>`;
}

/** `/account`: balance, plan, usage, history, unlocks, live jobs, key and webhooks. */
export function accountPage(d: AccountData, chrome: PageChrome) {
  const plan = plans[d.me.plan];
  return layout(
    'Your account · Podtext',
    html`<h1>Your account</h1>
${d.flash ? html`<p class="notice" role="status" id="flash">${d.flash}</p>` : ''}
${d.newKey
  ? html`<section class="card" aria-labelledby="newkey-h"><h2 id="newkey-h">Your new key</h2><p>Shown only this once. The old key no longer works, and every browser signed in with it was signed out.</p><code class="key" id="api-key">${d.newKey}</code></section>`
  : ''}
<section class="card" aria-labelledby="balance-h"><h2 id="balance-h">Balance and plan</h2>
<dl class="facts">
<dt>Email</dt><dd>${d.me.email}</dd>
<dt>Credits</dt><dd><strong data-credits="${d.me.credits}" id="credits">${d.me.credits}</strong></dd>
<dt>Plan</dt><dd id="plan">${plan.title} (${plan.monthlyCredits} credits a month, $${plan.priceUsd})</dd>
<dt>Cycle</dt><dd>until ${stamp(d.usage.cycleEndsAt)}</dd>
<dt>Requests today</dt><dd id="requests">${d.usage.requestsToday} of ${d.usage.requestLimit}</dd>
</dl>
${billingButtons(d, chrome)}
</section>
<section aria-labelledby="jobs-h"><h2 id="jobs-h">Transcription jobs</h2>
<p class="muted" id="jobs-live" role="status"></p>
<table id="jobs"><thead><tr><th scope="col">Job</th><th scope="col">Episodes</th><th scope="col">Status</th><th scope="col">Requested</th></tr></thead>
<tbody>${d.jobs.map(jobRow)}</tbody></table>
${d.jobs.length ? '' : html`<p id="no-jobs">No jobs yet: find an episode without a transcript and choose Transcribe.</p>`}
</section>
<section aria-labelledby="unlocks-h"><h2 id="unlocks-h">Unlocked episodes</h2>
${d.unlocks.length
  ? html`<ul id="unlocks">${d.unlocks.map((u) => html`<li data-transcript-id="${u.transcriptId}"><a href="/t/${u.transcriptId}">${u.title ?? u.transcriptId}</a> <span class="muted">${u.showTitle ? html`${u.showTitle} · ` : ''}${stamp(u.unlockedAt)}</span></li>`)}</ul>
${d.me.unlocks.length > d.unlocks.length ? html`<p class="muted">The latest ${d.unlocks.length} of ${d.me.unlocks.length}.</p>` : ''}`
  : html`<p>None yet.</p>`}
</section>
<section aria-labelledby="ledger-h"><h2 id="ledger-h">Credit history</h2>
<table id="ledger"><thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Credits</th><th scope="col">Balance</th></tr></thead><tbody>
${d.usage.ledger.map((l) => html`<tr><td>${stamp(l.createdAt)}</td><td>${l.memo || l.kind}</td><td>${l.amount > 0 ? `+${l.amount}` : l.amount}</td><td>${l.balanceAfter}</td></tr>`)}
</tbody></table></section>
<section class="card" aria-labelledby="key-h"><h2 id="key-h">API key</h2>
<p>Your key was shown once when it was issued. Rotating it retires it at once, issues a new one, and signs out every browser signed in with the old one (this one stays signed in with the new key). Credits, plan and unlocks stay.</p>
<form method="post" action="/account/key/rotate">${csrfField(chrome)}<button id="rotate">Rotate my key</button></form>
</section>
<section class="card" aria-labelledby="hooks-h"><h2 id="hooks-h">Webhooks</h2>
<p>Jobs with a <code>webhook_url</code> are delivered signed with this secret (header <code>${d.webhookHeader}</code>).</p>
<details><summary>Show the signing secret</summary><code class="key" id="webhook-secret">${d.webhookSecret}</code></details>
<div class="row spaced">
<form method="post" action="/account/webhook-secret/rotate">${csrfField(chrome)}<button class="quiet">Rotate the secret</button></form>
<form method="post" action="/account/inbox">${csrfField(chrome)}<button class="quiet">Create a test inbox</button></form>
</div>
${d.inbox
  ? html`<p id="inbox">Test inbox: send webhooks to <code>${d.inbox.url}</code>. It has received ${d.inbox.deliveries} so far; read them at <code>GET /api/v1/webhooks/inbox/${d.inbox.id}</code>. <a href="/account?inbox=${d.inbox.id}">Refresh</a></p>`
  : ''}
</section>`,
    { ...chrome, scripts: ['/assets/account.js'] },
  );
}

/** Why a subscriber's plan or credits are not what they pay for: a renewal Stripe could not charge. */
function paymentNotice(status: string | null) {
  if (status === 'past_due') {
    return html`<p class="notice" role="status" id="payment-notice">Stripe could not charge your card for this month and is retrying. Your plan stays meanwhile, but its new credits arrive only once the payment goes through: update your card with Manage billing.</p>`;
  }
  if (status === 'unpaid') {
    return html`<p class="notice" role="status" id="payment-notice">Your subscription is unpaid: Stripe's retries to charge your card failed, so this account has Free's limits until the invoice is paid. Pay it or update your card with Manage billing; your plan and its credits come back at once.</p>`;
  }
  return '';
}

/**
 * Upgrade (checkout) and "Manage billing" (portal). The portal needs an account
 * that subscribed through the payment provider; checkout needs billing configured
 * and no live subscription (a subscriber switches plan in the portal).
 */
function billingButtons(d: AccountData, chrome: PageChrome) {
  return html`${paymentNotice(d.me.billingStatus)}<div class="row">
${d.me.billingManaged ? html`<form method="post" action="/account/billing">${csrfField(chrome)}<button class="quiet" id="manage-billing">Manage billing</button></form>` : ''}
${d.billingConfigured && !d.me.subscribed
  ? (['plus', 'pro', 'business'] as const)
      .filter((p) => p !== d.me.plan)
      .map((p) => html`<form method="post" action="/account/checkout">${csrfField(chrome)}<input type="hidden" name="plan" value="${p}"><button class="quiet" data-plan="${p}">${plans[p].title}: ${plans[p].monthlyCredits} credits for $${plans[p].priceUsd} a month</button></form>`)
  : ''}
</div>`;
}
