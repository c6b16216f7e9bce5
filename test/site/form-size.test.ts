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
});
