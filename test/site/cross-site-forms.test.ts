import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type Inbox, startSmtpInbox } from '../support/smtp.js';

// Login CSRF: a page on another site must not be able to sign a visitor's
// browser into an account of its choosing (or post any other of our forms).
// Chromium is required: without it these tests fail rather than skip.
describe('forms posted from another site', () => {
  let t: TestPodtext;
  let smtp: Inbox;
  let browser: Browser;
  /** Podtext, at http://127.0.0.1:port. */
  let site: string;
  /** Another site: http://localhost:port, so another origin and another site to the browser. */
  let elsewhere: string;
  let other: Server;
  const pages = new Map<string, string>();
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [smtp, browser] = await Promise.all([startSmtpInbox(), launchBrowser()]);
    t = await startTestPodtext({ env: { SMTP_URL: smtp.url } });
    site = await t.podtext.listen();
    t.podtext.startWorkers();
    other = createServer((req, res) => {
      const page = pages.get(req.url ?? '');
      res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'not here');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    elsewhere = `http://localhost:${(other.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await new Promise((resolve) => other?.close(resolve));
    await t?.close();
    await smtp?.close();
  });

  /** A page on the other site that posts `fields` to Podtext's `path` as soon as it loads. */
  function autoSubmitting(name: string, path: string, fields: Record<string, string>): string {
    const inputs = Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`);
    pages.set(`/${name}`, `<!doctype html><title>Win a prize</title><form method="post" action="${site}${path}">${inputs.join('')}</form><script>document.forms[0].submit()</script>`);
    return `${elsewhere}/${name}`;
  }

  async function visitor() {
    const context = await browser.newContext();
    contexts.push(context);
    return { context, page: await context.newPage() };
  }

  /** A form token and its cookie, as anyone (the attacker too) gets them by opening /signin. */
  async function formPair(): Promise<{ csrf: string; cookie: string }> {
    const res = await fetch(`${site}/signin`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await res.text())?.[1];
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('podtext_form='))?.split(';')[0];
    if (!csrf || !cookie) throw new Error('/signin gave no form token');
    return { csrf, cookie };
  }

  async function confirmToken(email: string): Promise<string> {
    expect((await t.api('POST', '/register/start', { body: { email } })).status).toBe(200);
    return /confirm\?token=([A-Za-z0-9_-]+)/.exec((await smtp.next(email)).text ?? '')![1]!;
  }

  const sessionCookie = async (context: BrowserContext) => (await context.cookies(site)).find((c) => c.name === 'podtext_session');

  describe('in Chromium', () => {
    it('a page on another site that auto-submits the sign-in form with a valid key does not sign the browser in', async () => {
      const attacker = await t.account({ credits: 3 });
      const { context, page } = await visitor();
      // The visitor has been to Podtext before (so holds a form cookie), and the attacker posts a real token of its own.
      await page.goto(`${site}/signin`);
      const { csrf } = await formPair();
      const answer = page.waitForResponse((r) => r.url() === `${site}/signin` && r.request().method() === 'POST');
      await page.goto(autoSubmitting('signin', '/signin', { key: attacker.key, next: '/account', csrf }));
      const res = await answer;
      expect(res.status()).toBe(403);
      expect(res.headers()['set-cookie']).toBeUndefined();
      await page.waitForURL(`${site}/signin`);
      expect(await page.title()).toBe('Form refused · Podtext');
      expect(await sessionCookie(context)).toBeUndefined();
      await page.goto(`${site}/account`);
      expect(new URL(page.url()).pathname).toBe('/signin');
    });

    it('another site cannot frame its pages (a disguised click on a framed form); signed-in pages stay out of shared caches', async () => {
      const a = await t.account({ credits: 3 });
      const { context, page } = await visitor();
      pages.set('/framed', `<!doctype html><title>Click to win</title><iframe name="podtext" src="${site}/signin" width="800" height="600"></iframe>`);
      const answer = page.waitForResponse((r) => r.url() === `${site}/signin`);
      await page.goto(`${elsewhere}/framed`);
      expect((await answer).status()).toBe(200);
      await page.waitForTimeout(300);
      const frame = page.frame({ name: 'podtext' })!;
      // Refused by the browser: an error page in the frame, not the sign-in form.
      expect(await frame.locator('#key').count()).toBe(0);
      // The same page on its own opens as usual.
      await page.goto(`${site}/signin`);
      await page.fill('#key', a.key);
      await page.click('#signin button');
      await page.waitForURL(`${site}/account`);
      const headers = (await fetch(`${site}/account`, { headers: { cookie: `podtext_session=${(await sessionCookie(context))!.value}` } })).headers;
      expect(headers.get('x-frame-options')).toBe('DENY');
      expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(headers.get('cache-control')).toBe('private, no-store');
      expect(headers.get('x-content-type-options')).toBe('nosniff');
    });

    it("nor does one that auto-submits the attacker's registration token to /confirm; the token still works for its owner", async () => {
      const token = await confirmToken('mallory@example.com');
      const { context, page } = await visitor();
      const answer = page.waitForResponse((r) => r.url() === `${site}/confirm` && r.request().method() === 'POST');
      await page.goto(autoSubmitting('confirm', '/confirm', { token }));
      expect((await answer).status()).toBe(403);
      expect(await page.title()).toBe('Form refused · Podtext');
      expect(await sessionCookie(context)).toBeUndefined();
      // Not spent by the refusal: its owner, on Podtext, confirms with it.
      const owner = await visitor();
      await owner.page.goto(`${site}/confirm?token=${token}`);
      await owner.page.click('#confirm');
      expect(await owner.page.locator('#api-key').textContent()).toMatch(/^ptk_/);
      expect(await sessionCookie(owner.context)).toBeDefined();
    });

    it('nor one that posts the register form: no mail goes out', async () => {
      const { page } = await visitor();
      const answer = page.waitForResponse((r) => r.url() === `${site}/register` && r.request().method() === 'POST');
      await page.goto(autoSubmitting('register', '/register', { email: 'victim@example.com' }));
      expect((await answer).status()).toBe(403);
      await expect(smtp.next('victim@example.com', 1500)).rejects.toThrow();
    });

    it('nor one that posts a signed-in form of the visitor (sign out)', async () => {
      const a = await t.account({ credits: 1 });
      const { context, page } = await visitor();
      await page.goto(`${site}/signin`);
      await page.fill('#key', a.key);
      await page.click('#signin button');
      await page.waitForURL(`${site}/account`);
      const answer = page.waitForResponse((r) => r.url() === `${site}/signout` && r.request().method() === 'POST');
      await page.goto(autoSubmitting('signout', '/signout', {}));
      expect((await answer).status()).toBe(403);
      await page.goto(`${site}/account`);
      expect(new URL(page.url()).pathname).toBe('/account');
      expect(await sessionCookie(context)).toBeDefined();
    });

    it("on Podtext's own pages the forms work: a wrong key, then the right one; the lost-key form", async () => {
      const a = await t.account();
      const { context, page } = await visitor();
      await page.goto(`${site}/signin?next=/account`);
      await page.fill('#resend #email', a.email);
      await page.click('#resend button');
      await expect.poll(() => page.textContent('[role="status"]')).toContain('Check your inbox');
      await smtp.next(a.email);
      await page.fill('#key', 'ptk_not_a_key');
      await page.click('#signin button');
      expect(await page.textContent('[role="alert"]')).toContain('That key is not valid');
      // The page that said so carries a working token too.
      await page.fill('#key', a.key);
      await page.click('#signin button');
      await page.waitForURL(`${site}/account`);
      expect(await sessionCookie(context)).toBeDefined();
    });
  });

  describe('over HTTP', () => {
    const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${site}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields) });

    async function expectRefused(res: Response) {
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await res.text()).toContain('<title>Form refused · Podtext</title>');
    }

    const crossSite = {
      'another site (Fetch Metadata)': { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      'a sibling site on the same domain': { origin: 'http://other.127.0.0.1.nip.io', 'sec-fetch-site': 'same-site' },
      'another origin, from a browser without Fetch Metadata': { origin: 'http://evil.example' },
      'an opaque origin (sandboxed frame, data: page)': { origin: 'null' },
    };

    for (const [from, headers] of Object.entries(crossSite)) {
      it(`refuses a sign-in from ${from}, even with a valid key and a matching form token, and sets no cookie`, async () => {
        const a = await t.account();
        const { csrf, cookie } = await formPair();
        await expectRefused(await post('/signin', { key: a.key, csrf }, { ...headers, cookie }));
      });
    }

    it('refuses a browser sign-in without the form token, or with the token of another cookie', async () => {
      const a = await t.account();
      const mine = await formPair();
      const theirs = await formPair();
      await expectRefused(await post('/signin', { key: a.key }, { cookie: mine.cookie }));
      await expectRefused(await post('/signin', { key: a.key, csrf: theirs.csrf }, { cookie: mine.cookie }));
      await expectRefused(await post('/signin', { key: a.key }, { origin: site, 'sec-fetch-site': 'same-origin' }));
      await expectRefused(await post('/signin', { key: a.key, csrf: mine.csrf }, { origin: site }));
    });

    it('lets a script sign in with its key: no Origin, no Fetch Metadata, no form cookie (no page can send that)', async () => {
      const a = await t.account();
      const res = await post('/signin', { key: a.key, next: '/account' });
      expect(res.status).toBe(303);
      expect(res.headers.getSetCookie().some((c) => c.startsWith('podtext_session='))).toBe(true);
    });

    it('sends a signed-in browser on only to a path of its own: never to another host, whatever characters hide the slashes', async () => {
      const a = await t.account();
      const elsewhere = ['//evil.example', '/\\evil.example', '/\t/evil.example', '/\n/evil.example', '/\r\n/evil.example', '/%09/x', 'https://evil.example', 'javascript:alert(1)', '/.//evil.example/phish', '/x/..//evil.example', '/./\\evil.example'];
      for (const next of elsewhere) {
        const res = await post('/signin', { key: a.key, next });
        const location = res.headers.get('location');
        expect({ next, status: res.status }).toEqual({ next, status: 303 });
        // Wherever it points, a browser resolves it to this site.
        expect(new URL(location!, site).origin, next).toBe(new URL(site).origin);
      }
      expect((await post('/signin', { key: a.key, next: '/t/abc?x=1#p' })).headers.get('location')).toBe('/t/abc?x=1#p');
      const page = await (await t.request(`/signin?next=${encodeURIComponent('/\t/evil.example')}`)).text();
      expect(page).toContain('name="next" value="/account"');
    });

    it('a refused registration or search says why with its status, in words for people (no field names)', async () => {
      const { csrf, cookie } = await formPair();
      const bad = await post('/register', { email: 'not-an-address', csrf }, { cookie, origin: site });
      expect(bad.status).toBe(400);
      const page = await bad.text();
      expect(page).toContain('not a valid email address');
      expect(page).not.toContain('email: not a valid');
      const search = await fetch(`${site}/?q=${encodeURIComponent('https://open.spotify.com/show/abc')}`);
      expect(search.status).toBe(400);
      expect(await search.text()).not.toMatch(/>\s*q: /);
      expect((await fetch(`${site}/register`, { redirect: 'manual' })).status).toBe(303);
    });

    it('refuses /confirm and /register from another site, and without the form token', async () => {
      const token = await confirmToken('eve@example.com');
      const { csrf, cookie } = await formPair();
      await expectRefused(await post('/confirm', { token, csrf }, { cookie, ...crossSite['another site (Fetch Metadata)'] }));
      await expectRefused(await post('/confirm', { token }, { origin: site }));
      await expectRefused(await post('/register', { email: 'eve2@example.com', csrf }, { cookie, ...crossSite['another site (Fetch Metadata)'] }));
      await expectRefused(await post('/register', { email: 'eve2@example.com' }, { 'sec-fetch-site': 'same-origin' }));
      // The refused confirmation spent nothing: the token still confirms, from Podtext's own page.
      const ok = await post('/confirm', { token, csrf }, { cookie, origin: site, 'sec-fetch-site': 'same-origin' });
      expect(ok.status).toBe(200);
      expect(ok.headers.getSetCookie().some((c) => c.startsWith('podtext_session='))).toBe(true);
    });

    it('signs in from its own page, from a browser that sends only Origin, and from a client that sends neither (curl following the form)', async () => {
      const a = await t.account();
      const ways = {
        'a current browser': { origin: site, 'sec-fetch-site': 'same-origin' },
        'an older browser': { origin: site },
        curl: {},
        'a proxy that changed the Host (Origin is SITE_URL)': { origin: 'http://podtext.test' },
      };
      for (const [who, headers] of Object.entries(ways)) {
        const { csrf, cookie } = await formPair();
        const res = await post('/signin', { key: a.key, csrf, next: '/account' }, { ...headers, cookie });
        expect({ who, status: res.status, location: res.headers.get('location') }).toEqual({ who, status: 303, location: '/account' });
        expect(res.headers.getSetCookie().some((c) => c.startsWith('podtext_session=')), who).toBe(true);
      }
    });

    it('on https the form and session cookies are __Host- (no sibling subdomain can plant one), and sign in', async () => {
      const secure = await startTestPodtext({ env: { SITE_URL: 'https://podtext.test' } });
      try {
        const a = await secure.account();
        const res = await secure.request('/signin');
        const csrf = /name="csrf" value="([^"]+)"/.exec(await res.text())![1]!;
        const set = res.headers.getSetCookie().find((c) => c.startsWith('__Host-podtext_form='))!;
        expect(set).toMatch(/; Path=\/;.*HttpOnly; Secure; SameSite=Lax$/);
        expect(set).not.toMatch(/Domain=/i);
        const body = new URLSearchParams({ key: a.key, csrf });
        const headers = { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://podtext.test', 'sec-fetch-site': 'same-origin' };
        const signedIn = await secure.request('/signin', { method: 'POST', body, headers: { ...headers, cookie: set.split(';')[0]! } });
        expect(signedIn.status).toBe(303);
        const session = signedIn.headers.getSetCookie().find((c) => c.startsWith('__Host-podtext_session='))!;
        expect(session).toMatch(/; Path=\/;.*HttpOnly; Secure; SameSite=Lax$/);
        expect(session).not.toMatch(/Domain=/i);
        expect((await secure.request('/account', { headers: { cookie: session.split(';')[0]! } })).status).toBe(200);
        // A session cookie under the plain name, as a sibling subdomain could set for the whole domain, signs no one in.
        const planted = await secure.request('/account', { headers: { cookie: session.split(';')[0]!.replace('__Host-', '') }, redirect: 'manual' });
        expect(planted.headers.get('location')).toBe('/signin?next=%2Faccount');
        // The plain name does not count there.
        const plain = await secure.request('/signin', { method: 'POST', body, headers: { ...headers, cookie: set.split(';')[0]!.replace('__Host-', '') } });
        expect(plain.status).toBe(403);
      } finally {
        await secure.close();
      }
    });

    it('refuses a signed-in form from another site even with its session token', async () => {
      const a = await t.account();
      const { csrf, cookie } = await formPair();
      const signedIn = await post('/signin', { key: a.key, csrf }, { cookie });
      const session = signedIn.headers.getSetCookie().find((c) => c.startsWith('podtext_session='))!.split(';')[0]!;
      const account = await (await fetch(`${site}/account`, { headers: { cookie: session } })).text();
      const sessionCsrf = /action="\/account\/key\/rotate"><input type="hidden" name="csrf" value="([^"]+)"/.exec(account)![1]!;
      await expectRefused(await post('/account/key/rotate', { csrf: sessionCsrf }, { cookie: session, ...crossSite['another site (Fetch Metadata)'] }));
      expect((await t.api('GET', '/me', { key: a.key })).status).toBe(200);
    });
  });
});
