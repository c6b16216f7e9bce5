import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_MAX_BYTES } from '../../src/site/form-limit.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// Parsing a form holds several copies of its body: one large POST to a page
// would take the process's memory, with no key, cookie or token needed.
describe("the website's forms and a body no form sends", () => {
  let t: TestPodtext;
  let site: string;
  beforeAll(async () => {
    t = await startTestPodtext();
    site = await t.podtext.listen();
  });
  afterAll(async () => {
    await t?.close();
  });

  const form = (bytes: number) => `email=${'a'.repeat(bytes)}%40example.com&csrf=x`;

  it('is refused with a 413 page before it is read, stated length or streamed, and the connection is not offered again', async () => {
    for (const path of ['/signin', '/register', '/confirm', '/account/key/rotate']) {
      const res = await fetch(`${site}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(2 * 1024 * 1024) });
      expect(res.status, path).toBe(413);
      expect(res.headers.get('connection')).toBe('close');
      expect(await res.text()).toMatch(/Form too large/);
    }
    // 200 MB announced by nobody, sent in pieces: refused once the limit is passed, not at the end.
    let sent = 0;
    const chunk = new TextEncoder().encode('a'.repeat(64 * 1024));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 200 * 1024 * 1024) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const streamed = await fetch(`${site}/signin`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(sent).toBeLessThan(50 * 1024 * 1024);
    // The site goes on answering.
    expect((await fetch(`${site}/signin`)).status).toBe(200);
  });

  it('passes a form of any size a person could type', async () => {
    const res = await fetch(`${site}/signin`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(FORM_MAX_BYTES - 200), redirect: 'manual' });
    expect(res.status).not.toBe(413);
    expect(res.status).toBeLessThan(500);
  });

  it('a body its content type does not describe (a multipart cut short, a wrong boundary) is a 400 page, before and after signing in', async () => {
    const account = await t.account();
    const signin = await fetch(`${site}/signin`, { method: 'POST', body: new URLSearchParams({ key: account.key }), redirect: 'manual' });
    const session = signin.headers.getSetCookie().find((c) => c.startsWith('podtext_session='))!.split(';')[0]!;
    const broken = [
      { 'content-type': 'multipart/form-data; boundary=xx' },
      { 'content-type': 'multipart/form-data' },
    ];
    for (const headers of broken) {
      for (const [path, cookie] of [['/signin', ''], ['/register', ''], ['/account/inbox', session], ['/signout', session]] as const) {
        const res = await fetch(`${site}${path}`, { method: 'POST', headers: { ...headers, cookie }, body: '--xx\r\nContent-Disposition: form-data; name="key"\r\n\r\nptk_cut sho', redirect: 'manual' });
        expect(res.status, `${path} ${headers['content-type']}`).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(await res.text()).toContain('could not be read as a form');
      }
    }
    // Nothing was done: the session still works.
    expect((await fetch(`${site}/account`, { headers: { cookie: session }, redirect: 'manual' })).status).toBe(200);
  });
});
