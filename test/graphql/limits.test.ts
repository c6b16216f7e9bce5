import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OBJECTS } from '../../src/graphql/fan-out-limit.js';
import { MAX_ALIASES, MAX_DEPTH, MAX_TOKENS } from '../../src/graphql/limits.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

let t: TestPodtext;
let prod: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
  prod = await startTestPodtext({ env: { NODE_ENV: 'production' } });
});
afterAll(async () => {
  await t.close();
  await prod.close();
});

describe('GraphQL limits', () => {
  it(`refuses more than ${MAX_ALIASES} aliases before any resolver runs; the refused document counts as one call`, async () => {
    const a = await t.account();
    const many = Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `a${i}: me { credits }`).join(' ');
    const res = await t.gql(`{ ${many} }`, {}, a.key);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]?.message).toMatch(/alias/i);
    const usage = (await (await t.api('GET', '/usage', { key: a.key })).json()) as { requests_today: number };
    // The refused document, then this /usage.
    expect(usage.requests_today).toBe(2);
  });

  it('aliases are limited per operation: a document of two operations within the limit runs, each root field counted', async () => {
    const a = await t.account();
    const aliased = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}: me { credits }`).join(' ');
    const query = `query A { ${aliased('a', 10)} } query B { ${aliased('b', 6)} }`;
    const res = await t.request('/graphql', { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query, operationName: 'A' }) });
    expect(Object.keys(((await res.json()) as { data: object }).data)).toHaveLength(10);
    expect(res.headers.get('x-ratelimit-remaining')).toBe(String(1000 - 10));
  });

  it('every limit refuses with the REST code in extensions.code, as every other error', async () => {
    const a = await t.account();
    const aliased = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');
    // Nested shows and episodes; validated before anything runs, so the show need not exist.
    const nested = (levels: number, leaf: string): string => (levels === 0 ? leaf : `show { episodes { ${nested(levels - 1, leaf)} } }`);
    const refused: [string, string][] = [
      ['depth', `{ episodes(feedId: 1) { nodes { ${nested(MAX_DEPTH / 2, 'title')} } } }`],
      ['aliases', `{ ${aliased(MAX_ALIASES + 1, 'me { credits }')} }`],
      ['tokens', `{ me { ${Array.from({ length: MAX_TOKENS }, () => 'credits').join(' ')} } }`],
      // Within the depth limit, a hundredfold a level: a million shows.
      ['objects', `{ show(feedId: 1) { episodes { show { episodes { show { episodes { show { title } } } } } } } }`],
      // A transcript's content is thousands of objects, not a list of 25: a page of them with their words,
      // or rendered, is a million objects and a 26 MB answer.
      ['objects', `{ episodes(feedId: 1, first: 30) { nodes { transcript { segments { words { w s } } } } } }`],
      ['objects', `{ episodes(feedId: 1, first: 5) { nodes { transcript { rendered(format: JSON, timestamps: true, words: true) } } } }`],
      // Trending's page is its `max`: 100 shows of 300 episodes each with its show is 60,000 objects.
      ['objects', `{ trending(max: 100) { shows { episodes(first: 300) { title show { title } } } } }`],
    ];
    const limit = { depth: MAX_DEPTH, aliases: MAX_ALIASES, tokens: MAX_TOKENS };
    for (const [what, query] of refused) {
      const res = await t.gql(query, {}, a.key);
      expect(res.body.data, what).toBeUndefined();
      const message = what === 'objects' ? new RegExp(`one operation may resolve ${MAX_OBJECTS.toLocaleString('en-US')}`) : new RegExp(`${what === 'tokens' ? 'Token' : what === 'aliases' ? 'Aliases' : 'depth'} limit of ${limit[what as keyof typeof limit]}`, 'i');
      expect(res.body.errors?.[0]?.message, what).toMatch(message);
      expect(res.body.errors?.[0]?.extensions?.code, what).toBe('invalid_request');
    }
    // What the schema documents passes: a page of 1,000 episodes with their shows, a variable page, a search's shows with their episodes.
    for (const query of [
      '{ episodes(feedId: 1, first: 1000) { nodes { title guid audioUrl publishedAt show { title author } } } }',
      'query ($n: Int) { show(feedId: 1) { episodes(first: $n) { title show { title } } } }',
      '{ search(q: "x") { shows { title episodes { title transcriptStatus } } } }',
      '{ trending(max: 100) { categories shows { title episodes(first: 50) { title } } } }',
      // One transcript's content, with its words, or four.
      '{ transcript(transcriptId: "0123456789abcdef") { segments { start text words { w s } } } }',
      '{ episodes(feedId: 1, first: 4) { nodes { transcript { version segments { words { w s } } } } } }',
      '{ episodes(feedId: 1, first: 1000) { nodes { transcript { version } } } }',
    ]) {
      const res = await t.gql(query, {}, a.key);
      expect(JSON.stringify(res.body.errors ?? []), query).not.toMatch(/may resolve|limit of/);
    }
    // Malformed and invalid documents alike: a client handles one set of codes. The status follows
    // GraphQL over HTTP: 400 for application/graphql-response+json, 200 for legacy application/json.
    for (const query of ['{ me { ', '{ mee { credits } }', ...refused.map(([, q]) => q)]) {
      const res = await t.gql(query, {}, a.key);
      expect(res.body.errors?.[0]?.extensions?.code, query).toBe('invalid_request');
      for (const [accept, status] of [['application/graphql-response+json', 400], ['application/json', 200]] as const) {
        const r = await t.request('/graphql', { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json', accept }, body: JSON.stringify({ query }) });
        expect(r.status, `${accept} ${query.slice(0, 20)}`).toBe(status);
        expect(((await r.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe('invalid_request');
      }
    }
    // A variable of the wrong type, or not a value of its enum: the client's error, naming the variable; nothing logged as a fault.
    for (const [query, variables] of [
      ['query ($f: Float!) { show(feedId: $f) { title } }', { f: 'abc' }],
      ['query ($f: TranscriptFormat!) { transcript(transcriptId: "0123456789abcdef") { rendered(format: $f) } }', { f: 'doc' }],
    ] as const) {
      const res = await t.gql(query, variables, a.key);
      expect(res.body.errors?.[0]?.extensions?.code, query).toBe('invalid_request');
      expect(res.body.errors?.[0]?.message, query).toMatch(/^Variable "\$f"/);
      for (const [accept, status] of [['application/graphql-response+json', 400], ['application/json', 200]] as const) {
        const r = await t.request('/graphql', { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json', accept }, body: JSON.stringify({ query, variables }) });
        expect(r.status, `${accept} ${query.slice(0, 20)}`).toBe(status);
      }
    }
    // A body that is not JSON: 400 invalid_request saying so, without the parser's internals.
    const notJson = await t.request('/graphql', { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body: '{bad' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ errors: [{ message: 'body: malformed JSON', extensions: { code: 'invalid_request', field: 'body' } }] });
    // A mutation sent by GET: REST's method_not_allowed, 405, with Allow.
    const get = await t.request(`/graphql?query=${encodeURIComponent('mutation { rotateWebhookSecret { rotated } }')}`, { headers: { authorization: `Bearer ${a.key}`, accept: 'application/json' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toMatch(/POST/);
    expect(((await get.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe('method_not_allowed');
  });

  it('production hides the schema and field suggestions', async () => {
    const intro = await prod.gql('{ __schema { types { name } } }');
    expect(intro.body.errors?.length).toBeGreaterThan(0);
    const typo = await prod.gql('{ mee { credits } }');
    expect(JSON.stringify(typo.body.errors)).not.toMatch(/Did you mean/);
    const dev = await t.gql('{ mee { credits } }');
    expect(JSON.stringify(dev.body.errors)).toMatch(/Did you mean/);
  });

  it("production answers a browser opening /graphql (the site's GraphQL link) with a page saying how to call it", async () => {
    const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const page = await prod.request('/graphql', { headers: { accept } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('text/html');
    const body = await page.text();
    expect(body).toContain('GraphiQL is off on this server');
    expect(body).toContain('POST to');
    // A document still runs, whatever the Accept.
    const run = await prod.request(`/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: { accept } });
    expect(await run.text()).toContain('"__typename":"Query"');
  });
});
