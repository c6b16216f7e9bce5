import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { streamSSE } from 'hono/streaming';
import type { Actor } from '../core/accounts/actor.js';
import { START_MESSAGE } from '../core/accounts/registration.js';
import { isTranscriptFormat } from '../core/transcripts/formats/render-transcript.js';
import { stampRateLimit } from '../wire/rate-limit-stamps.js';
import { DomainError, errorStatus } from '../core/errors.js';
import type { JobView } from '../core/jobs/job-view.js';
import type { RestEnv } from '../rest/env.js';
import { registerArtworkRoute } from './artwork-route.js';
import { registerAssetRoutes } from './asset-routes.js';
import { registerSampleAudioRoute } from './sample-audio-route.js';
import { registerDocsPages } from './docs-pages.js';
import { fromAnotherOrigin } from './cross-site.js';
import { formLimit } from './form-limit.js';
import { formToken, requireFormToken } from './form-token.js';
import type { PageChrome } from './layout.js';
import { accountPage, failureNote } from './pages/account-page.js';
import { confirmPage, keyShownPage } from './pages/confirm-page.js';
import { DOWNLOADS, episodePage } from './pages/episode-page.js';
import { pageHeaders } from './page-headers.js';
import { billingSuccessPage } from './pages/billing-page.js';
import { errorPage } from './pages/error-page.js';
import { stamp } from './pages/format.js';
import { homePage } from './pages/home-page.js';
import { showPage } from './pages/show-page.js';
import { signinPage } from './pages/signin-page.js';
import { admitAction, allowanceSpent, csrfToken, requireCsrf, sessionToken, signIn, signOut, siteActor } from './session.js';
import { readForm } from './read-form.js';

type C = Context<RestEnv>;

function chrome(c: C, actor: Actor | null): PageChrome {
  return { signedIn: actor !== null, csrf: actor ? csrfToken(c) : '' };
}

const SELF = 'http://podtext.invalid';
/** Unlocks the account page lists, latest first. */
const ACCOUNT_UNLOCKS_SHOWN = 50;

/**
 * Only paths on this site: never an open redirect. Browsers drop tabs and
 * newlines and read `\` as `/` before resolving a Location, so the path is
 * judged as they will read it, and refused when it holds any of those.
 */
function localPath(next: unknown, fallback: string): string {
  if (typeof next !== 'string' || !next.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(next)) return fallback;
  try {
    const url = new URL(next, SELF);
    // Resolving dot segments can leave `//host` (`/.//evil.example`), which a browser reads as another host.
    if (url.origin !== SELF || url.pathname.startsWith('//')) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** A refusal's message for a page: the API's names the field (`q: …`), which a form's reader does not need. */
function pageMessage(err: DomainError): string {
  return err.message.replace(/^[a-z_.0-9]+: /, '');
}

const statusOf = (err: DomainError) => errorStatus[err.code] as ContentfulStatusCode;

function toSignIn(c: C) {
  return c.redirect(`/signin?next=${encodeURIComponent(c.req.path)}`, 303);
}

/**
 * Domain errors a page can show: a page in the site's style with the message.
 * A page address that names nothing valid is not found; a form's bad value is
 * a 400, like any other refused action.
 */
function failedPage(c: C, err: unknown, actor: Actor | null) {
  if (!(err instanceof DomainError)) throw err;
  if (err.code === 'not_found' || (err.code === 'invalid_request' && c.req.method === 'GET')) return c.html(errorPage(404, 'Not found', err.message, chrome(c, actor)), 404);
  if (err.code === 'unauthorized') return toSignIn(c);
  if (err.code === 'rate_limited') return allowanceSpent(c, err, chrome(c, actor));
  const status = errorStatus[err.code] as ContentfulStatusCode;
  return c.html(errorPage(status, 'That did not work', err.message, chrome(c, actor)), status);
}

async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof DomainError) return null;
    throw err;
  }
}

/** What the account page's script needs to draw or update one job row. */
function jobEvent(j: JobView) {
  return {
    id: j.id,
    status: j.status,
    done: j.done,
    total: j.total,
    created: stamp(j.createdAt),
    titles: j.episodes.map((e) => e.title),
    episodes: j.episodes.map((e) => ({ id: e.transcriptId, title: e.title, ready: e.status === 'ready', failed: e.status === 'failed' ? failureNote(e) : null })),
  };
}

/** The website: pages, /openapi.json and /llms.txt (generated once at start). */
/** `stopping` aborts when the server begins to shut down: open live streams end then, not at the grace period's end. */
export function registerSiteRoutes(app: Hono<RestEnv>, docs: { openapi: unknown; llms: string }, stopping?: AbortSignal): void {
  app.use('*', pageHeaders);
  app.use('*', formLimit);
  const openapiJson = JSON.stringify(docs.openapi);
  app.get('/openapi.json', (c) => c.body(openapiJson, 200, { 'content-type': 'application/json; charset=utf-8' }));
  app.get('/llms.txt', (c) => c.text(docs.llms));
  registerAssetRoutes(app);
  registerDocsPages(app);
  registerArtworkRoute(app);
  registerSampleAudioRoute(app);

  app.get('/', async (c) => {
    const actor = await siteActor(c);
    const { discovery } = c.get('services');
    // Control characters (a NUL, a bell, a tab) separate words at most: they are neither searched for nor echoed into the page.
    const q = (c.req.query('q') ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/ {2,}/g, ' ').trim();
    let results = null;
    let searchError: DomainError | null = null;
    if (q) {
      try {
        results = await discovery.search(actor, q);
        // A link names one show: go straight to it.
        if (/^https?:\/\//i.test(q) && results.shows.length === 1) return c.redirect(`/shows/${String(results.shows[0]!.id)}`, 303);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        searchError = err;
      }
    }
    const [charts, trending] = q ? [null, null] : await Promise.all([orNull(discovery.charts()), orNull(discovery.trending({ max: 12 }))]);
    const registered = c.req.query('registered') !== undefined ? START_MESSAGE : null;
    // Only visitors see the register form, so only they get a form cookie.
    const page = homePage({ q, results, searchError: searchError && pageMessage(searchError), charts, trending, registered, formCsrf: actor ? '' : formToken(c) }, chrome(c, actor));
    return c.html(page, searchError ? statusOf(searchError) : 200);
  });

  app.post('/register', requireFormToken, async (c) => {
    const form = await readForm(c);
    const actor = await siteActor(c);
    const fromSignin = form.from === 'signin';
    try {
      await c.get('services').registration.start(String(form.email ?? ''));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const formCsrf = formToken(c);
      const message = pageMessage(err);
      if (fromSignin) return c.html(signinPage({ sent: message, formCsrf }, chrome(c, actor)), statusOf(err));
      return c.html(homePage({ q: '', results: null, searchError: null, charts: null, trending: null, registered: message, formCsrf }, chrome(c, actor)), statusOf(err));
    }
    // Sent: a page of its own, so a reload does not register (and mail) again.
    return c.redirect(fromSignin ? '/signin?sent' : '/?registered', 303);
  });
  app.get('/register', (c) => c.redirect('/', 303));

  app.get('/signin', async (c) => {
    const sent = c.req.query('sent') !== undefined ? START_MESSAGE : null;
    return c.html(signinPage({ next: localPath(c.req.query('next'), '/account'), sent, formCsrf: formToken(c) }, chrome(c, await siteActor(c))));
  });
  app.post('/signin', requireFormToken, async (c) => {
    const form = await readForm(c);
    const next = localPath(form.next, '/account');
    try {
      await signIn(c, String(form.key ?? ''));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return c.html(signinPage({ error: 'That key is not valid (it may have been rotated). Check it, or have it emailed below.', next, formCsrf: formToken(c) }, chrome(c, null)), 401);
    }
    return c.redirect(next, 303);
  });
  // A second tab's Sign out, after the first signed this browser out: there is nothing left to end, so it is not a refused form.
  const alreadySignedOut: MiddlewareHandler<RestEnv> = async (c, next) => {
    if (!sessionToken(c) && !fromAnotherOrigin(c)) return c.redirect('/', 303);
    await next();
  };
  app.post('/signout', alreadySignedOut, requireCsrf, async (c) => {
    await signOut(c);
    return c.redirect('/', 303);
  });

  app.get('/confirm', async (c) => c.html(confirmPage(c.req.query('token') ?? '', formToken(c), chrome(c, await siteActor(c)))));
  app.post('/confirm', requireFormToken, async (c) => {
    const form = await readForm(c);
    try {
      const r = await c.get('services').registration.confirm(String(form.token ?? ''));
      const csrf = await signIn(c, r.key);
      c.header('cache-control', 'no-store');
      return c.html(keyShownPage(r, { signedIn: true, csrf }));
    } catch (err) {
      return failedPage(c, err, await siteActor(c));
    }
  });

  app.get('/shows/:feedId', async (c) => {
    const actor = await siteActor(c);
    try {
      const after = c.req.query('after') || null;
      const list = await c.get('services').discovery.episodes(actor, c.req.param('feedId'), { max: 100, after: after ?? undefined });
      return c.html(showPage(list, chrome(c, actor), { after }));
    } catch (err) {
      return failedPage(c, err, actor);
    }
  });

  app.get('/t/:id', async (c) => {
    const actor = await siteActor(c);
    const { transcripts, jobs } = c.get('services');
    try {
      const info = await transcripts.pageInfo(c.req.param('id'), actor);
      let doc = null;
      let locked = false;
      let quote = null;
      if (info.status === 'ready') {
        try {
          doc = (await transcripts.readDocument(actor, info.transcriptId)).doc;
        } catch (err) {
          if (!(err instanceof DomainError) || (err.code !== 'transcript_locked' && err.code !== 'unauthorized')) throw err;
          locked = true;
        }
      } else if (info.status === 'none' && actor && info.audioUrl) {
        quote = await orNull(jobs.request(actor, { episodes: [{ guid: info.guid, url: info.audioUrl, title: info.title, secs: info.durationSeconds }], dryRun: true }));
      }
      const flash = c.req.query('done') === 'unlocked' ? 'Unlocked: the transcript is yours, here and through the API.' : null;
      return c.html(episodePage({ ...info, doc, locked, quote, flash }, chrome(c, actor)));
    } catch (err) {
      return failedPage(c, err, actor);
    }
  });

  // The API's read, for a signed-in browser (or anyone, for the public sample): counted and stamped like GET /transcripts/{id}.
  app.get('/t/:id/download/:format', async (c) => {
    const id = c.req.param('id');
    const format = c.req.param('format');
    try {
      if (!DOWNLOADS.some(([f]) => f === format) || !isTranscriptFormat(format)) throw new DomainError('not_found', `There is no ${format} download.`);
      const token = sessionToken(c);
      const admission = await c.get('services').door.admit({ operation: 'getTranscript', input: { transcriptId: id } }, token ? { session: token } : {});
      stampRateLimit(c, admission.headers);
      if (admission.error) throw admission.error;
      const out = await c.get('services').transcripts.read(admission.actor, id, format, { timestamps: format === 'json', words: false });
      return c.body(out.body, 200, { 'content-type': out.contentType, 'content-disposition': `attachment; filename="${id}.${format}"` });
    } catch (err) {
      return failedPage(c, err, await siteActor(c));
    }
  });

  // Where Stripe's Checkout returns the buyer: syncs the account from Stripe once, idempotently with the webhook.
  app.get('/billing/success', async (c) => {
    const actor = await siteActor(c);
    try {
      const r = await c.get('services').billing.completeCheckout(c.req.query('session_id') ?? '');
      // The address travels (history, a forwarded link): the balance is shown to the account's own session only.
      const own = actor !== null && actor.accountId === r.accountId;
      return c.html(billingSuccessPage(r, own, chrome(c, actor)), r.status === 'pending' ? 202 : 200);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.details?.retryAfter) c.header('Retry-After', String(err.details.retryAfter));
      return c.html(errorPage(statusOf(err), 'We could not confirm this checkout', `${pageMessage(err)} Your account page shows your plan and balance.`, chrome(c, actor)), statusOf(err));
    }
  });

  app.post('/t/:id/unlock', requireCsrf, admitAction('unlockTranscript'), async (c) => {
    const actor = c.get('actor');
    try {
      const r = await c.get('services').transcripts.unlock(actor, c.req.param('id'));
      return c.redirect(`/t/${r.transcriptId}?done=unlocked`, 303);
    } catch (err) {
      return failedPage(c, err, actor);
    }
  });

  app.post('/t/:id/transcribe', requireCsrf, admitAction('requestTranscription'), async (c) => {
    const actor = c.get('actor');
    try {
      const info = await c.get('services').transcripts.pageInfo(c.req.param('id'), actor);
      if (!info.audioUrl) throw new DomainError('invalid_request', 'This episode has no audio to transcribe.');
      const r = await c.get('services').jobs.request(actor, { episodes: [{ guid: info.guid, url: info.audioUrl, title: info.title, secs: info.durationSeconds }] });
      return c.redirect(r.job ? `/account?job=${r.job.id}` : `/t/${info.transcriptId}`, 303);
    } catch (err) {
      return failedPage(c, err, actor);
    }
  });

  app.get('/account', async (c) => {
    const actor = await siteActor(c);
    if (!actor) return toSignIn(c);
    return c.html(await renderAccount(c, actor, null));
  });

  async function renderAccount(c: C, actor: Actor, newKey: string | null, csrf?: string) {
    const { accounts, jobs, webhooks } = c.get('services');
    const inboxId = c.req.query('inbox');
    const [me, usage, jobPage, secret, inbox] = await Promise.all([
      accounts.me(actor),
      accounts.usage(actor),
      jobs.list(actor, { per: 20 }),
      webhooks.getSecret(actor),
      inboxId ? orNull(webhooks.readInbox(actor, inboxId)) : Promise.resolve(null),
    ]);
    const unlocks = me.unlocks.slice(0, ACCOUNT_UNLOCKS_SHOWN);
    const titles = await c.get('services').discovery.titles(unlocks.map((u) => u.transcriptId));
    const done = c.req.query('done');
    const flash = c.req.query('job') ? 'Transcription requested: the job below updates by itself.' : done === 'secret' ? 'Webhook secret rotated; the old one still signs deliveries for 24 hours.' : null;
    return accountPage(
      {
        me,
        unlocks: unlocks.map((u) => ({ ...u, ...titles.get(u.transcriptId) })),
        usage,
        jobs: jobPage.jobs,
        webhookSecret: secret.secret,
        webhookHeader: secret.header,
        inbox: inbox && inboxId ? { id: inboxId, url: `${c.get('services').links.site}/hooks/inbox/${inboxId}`, deliveries: inbox.deliveries.length } : null,
        newKey,
        flash,
        billingConfigured: c.get('services').billing.enabled,
      },
      csrf ? { signedIn: true, csrf } : chrome(c, actor),
    );
  }

  app.post('/account/key/rotate', requireCsrf, admitAction('rotateKey'), async (c) => {
    const actor = c.get('actor');
    const { key } = await c.get('services').keys.rotate(actor);
    // Every session of the old key ended with it; this browser continues with the new one.
    const csrf = await signIn(c, key);
    c.header('cache-control', 'no-store');
    return c.html(await renderAccount(c, await c.get('services').keys.authenticate(key), key, csrf));
  });
  app.post('/account/webhook-secret/rotate', requireCsrf, admitAction('rotateWebhookSecret'), async (c) => {
    const actor = c.get('actor');
    await c.get('services').webhooks.rotateSecret(actor);
    return c.redirect('/account?done=secret', 303);
  });
  app.post('/account/inbox', requireCsrf, admitAction('createWebhookInbox'), async (c) => {
    const actor = c.get('actor');
    const inbox = await c.get('services').webhooks.createInbox(actor);
    return c.redirect(`/account?inbox=${inbox.id}`, 303);
  });
  app.post('/account/billing', requireCsrf, admitAction('openBillingPortal'), async (c) => {
    const actor = c.get('actor');
    try {
      return c.redirect((await c.get('services').billing.portal(actor)).url, 303);
    } catch (err) {
      return failedPage(c, err, actor);
    }
  });
  app.post('/account/checkout', requireCsrf, admitAction('startCheckout'), async (c) => {
    const actor = c.get('actor');
    const plan = String((await readForm(c)).plan ?? '');
    try {
      return c.redirect((await c.get('services').billing.checkout(actor, plan)).url, 303);
    } catch (err) {
      return failedPage(c, err, actor);
    }
  });

  // Live job rows: the account's unfinished jobs, then every change, as server-sent events.
  // The stream ends when the key is retired (a rotation signs every browser out) and,
  // before each row, when this session has ended: nothing of the account reaches a
  // browser that is no longer signed in.
  app.get('/account/jobs/events', async (c) => {
    const actor = await siteActor(c);
    if (!actor) return c.text('Signed out', 401);
    const { accounts, jobs, keyRetirement } = c.get('services');
    const retirement = keyRetirement.watch(actor);
    let changes: AsyncIterableIterator<JobView>;
    try {
      changes = retirement.guard(await jobs.watchAll(actor));
    } catch (err) {
      retirement.release();
      throw err;
    }
    return streamSSE(c, async (stream) => {
      // A shutdown ends the stream at once; the browser's EventSource reconnects to a server that is up.
      const end = () => void changes.return?.();
      stream.onAbort(end);
      stopping?.addEventListener('abort', end, { once: true });
      try {
        if (stopping?.aborted) return end();
        for await (const job of changes) {
          if (stream.aborted || (await siteActor(c))?.accountId !== actor.accountId) break;
          // The balance with it: a job charges when asked and refunds what it could not transcribe.
          const { credits } = await accounts.me(actor);
          await stream.writeSSE({ event: 'job', data: JSON.stringify({ ...jobEvent(job), credits }) });
        }
      } finally {
        stopping?.removeEventListener('abort', end);
      }
    });
  });
}
