import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

type Schema = { $ref?: string; type?: string | string[]; anyOf?: Schema[]; items?: Schema; properties?: Record<string, Schema> };
type Doc = { components: { schemas: Record<string, Schema> }; paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>> };

let t: TestPodtext;
let doc: Doc;
beforeAll(async () => {
  t = await startTestPodtext();
  doc = (await (await t.request('/openapi.json')).json()) as Doc;
});
afterAll(() => t?.close());

function resolve(s: Schema): Schema {
  return s.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()!]!) : s;
}
/** Whether a value of `null` fits the schema, as a generated client reads it. */
function admitsNull(s: Schema): boolean {
  if (s.anyOf) return s.anyOf.some(admitsNull);
  const r = resolve(s);
  return Array.isArray(r.type) ? r.type.includes('null') : r.type === 'null';
}
function ok200(path: string, method = 'get'): Schema {
  return doc.paths[path]![method]!.responses['200']!.content!['application/json']!.schema;
}

// Generated clients type every use of a component from the component itself:
// a named resource that admits null makes GET /jobs/{id} answer `Job | null`.
describe('openapi.json says null exactly where the server sends it', () => {
  it('no named resource is nullable in itself', () => {
    const nullable = Object.entries(doc.components.schemas).filter(([, s]) => admitsNull(s)).map(([name]) => name);
    expect(nullable).toEqual([]);
  });

  it('GET /jobs/{id} and each of GET /jobs never null; a dry run\'s job is null, and documented so', async () => {
    expect(admitsNull(ok200('/jobs/{id}'))).toBe(false);
    expect(admitsNull(resolve(ok200('/jobs')).properties!.jobs!.items!)).toBe(false);
    const a = await t.account({ credits: 5 });
    const res = await t.api('POST', '/requests', { key: a.key, body: { episodes: [{ guid: 'g-1', url: 'https://example.com/a.mp3', secs: 60 }], dry_run: true } });
    expect(res.status).toBe(200);
    expect((await res.json()).job).toBeNull();
    expect(admitsNull(resolve(ok200('/requests', 'post')).properties!.job!)).toBe(true);
  });

  it('the overall chart\'s genre is null, and documented so; its list of genres holds no null', async () => {
    const a = await t.account({ credits: 0 });
    const res = await t.api('GET', '/charts', { key: a.key });
    expect(res.status).toBe(200);
    expect((await res.json()).genre).toBeNull();
    const charts = resolve(ok200('/charts'));
    expect(admitsNull(charts.properties!.genre!)).toBe(true);
    expect(admitsNull(charts.properties!.genres!.items!)).toBe(false);
  });
});

type Param = { name: string; in: string; schema: { minimum?: number; maximum?: number; default?: unknown } };

// A client generated from openapi.json (or a form built from it) takes ranges
// and defaults from schema keywords, not from prose.
describe('openapi.json states the ranges and defaults the server applies', () => {
  const cases = [
    { path: '/shows/{feed_id}/episodes', url: '/shows/999999999999/episodes', name: 'max', minimum: 1, maximum: 1000, default: 100 },
    { path: '/trending', url: '/trending', name: 'max', minimum: 1, maximum: 100, default: 24 },
    { path: '/jobs', url: '/jobs', name: 'per', minimum: 1, maximum: 50, default: 20 },
    { path: '/jobs', url: '/jobs', name: 'page', minimum: 1, maximum: undefined, default: 1 },
  ];
  it.each(cases)('$path ?$name: from $minimum to $maximum, default $default', async (c) => {
    const op = (doc.paths[c.path]!.get as unknown as { parameters: Param[] }).parameters.find((p) => p.name === c.name)!;
    expect({ minimum: op.schema.minimum, maximum: op.schema.maximum, default: op.schema.default }).toEqual({ minimum: c.minimum, maximum: c.maximum, default: c.default });
    const a = await t.account({ credits: 0 });
    const status = async (v: number) => (await t.api('GET', `${c.url}?${c.name}=${v}`, { key: a.key })).status;
    expect(await status(c.minimum)).toBe(200);
    expect(await status(c.minimum - 1)).toBe(400);
    if (c.maximum !== undefined) {
      expect(await status(c.maximum)).toBe(200);
      expect(await status(c.maximum + 1)).toBe(400);
    }
  });

  it('POST /requests takes from 1 to 25 episodes', async () => {
    const body = (doc.paths['/requests']!.post as unknown as { requestBody: { content: Record<string, { schema: { properties: Record<string, { minItems?: number; maxItems?: number }> } }> } }).requestBody;
    const episodes = body.content['application/json']!.schema.properties.episodes!;
    expect([episodes.minItems, episodes.maxItems]).toEqual([1, 25]);
    const a = await t.account({ credits: 0 });
    expect((await t.api('POST', '/requests', { key: a.key, body: { episodes: [], dry_run: true } })).status).toBe(400);
  });
});

describe('openapi.json documents the rate-limit headers the server sends', () => {
  it('on every answer of every operation under /api/v1, the transcript and its 304 included', async () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      if (path === '/livez' || path === '/readyz') continue;
      for (const [method, op] of Object.entries(item)) {
        for (const [status, r] of Object.entries(op.responses as Record<string, { headers?: Record<string, unknown> }>)) {
          if (!r.headers?.['X-RateLimit-Limit'] || !r.headers['X-RateLimit-Remaining']) missing.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
    const a = await t.account({ credits: 0 });
    const first = await t.api('GET', '/transcripts/97ab7f764b594d58', { key: a.key });
    const again = await t.api('GET', '/transcripts/97ab7f764b594d58', { key: a.key, headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    for (const res of [first, again]) expect([res.headers.get('x-ratelimit-limit'), res.headers.get('etag')]).toEqual(['1000', first.headers.get('etag')]);
  });
});

describe('llms.txt says which calls need a key, as the server decides', () => {
  it('the transcript read needs none for the public sample; the others need one', async () => {
    const llms = await (await t.request('/llms.txt')).text();
    expect(llms).toContain('- GET /transcripts/{transcript_id} (key; none for the public sample):');
    expect(llms).toContain('- POST /unlock (key):');
    expect((await t.api('GET', '/transcripts/97ab7f764b594d58')).status).toBe(200);
    expect((await t.api('POST', '/unlock', { body: { transcript: '97ab7f764b594d58' } })).status).toBe(401);
  });
});

describe('openapi.json states the lengths POST /requests accepts', () => {
  it('guid, url, title, date and webhook_url: at most 2048 characters; guid and url not empty', async () => {
    type Props = Record<string, { minLength?: number; maxLength?: number; items?: { properties: Props } }>;
    const body = (doc.paths['/requests']!.post as unknown as { requestBody: { content: Record<string, { schema: { properties: Props } }> } }).requestBody;
    const props = body.content['application/json']!.schema.properties;
    const item = props.episodes!.items!.properties;
    const lengths = Object.fromEntries(['guid', 'url', 'title', 'date'].map((k) => [k, [item[k]!.minLength, item[k]!.maxLength]]));
    expect(lengths).toEqual({ guid: [1, 2048], url: [1, 2048], title: [undefined, 2048], date: [undefined, 2048] });
    expect(props.webhook_url!.maxLength).toBe(2048);
    const a = await t.account({ credits: 0 });
    const quote = (guid: string) => t.api('POST', '/requests', { key: a.key, body: { episodes: [{ guid, url: 'https://example.com/a.mp3' }], dry_run: true } });
    expect((await quote('g'.repeat(2048))).status).toBe(200);
    expect((await quote('g'.repeat(2049))).status).toBe(400);
  });
});

describe('openapi.json documents Retry-After where the server sends it', () => {
  it('on every 429 and 503 under /api/v1, as a 429 for too many registration attempts carries it', async () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      if (path === '/livez' || path === '/readyz') continue;
      for (const [method, op] of Object.entries(item)) {
        for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, { headers?: Record<string, unknown> }>)) {
          if ((status === '429' || status === '503') && !r.headers?.['Retry-After']) missing.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
    let res: Response | undefined;
    for (let i = 0; i < 10 && res?.status !== 429; i++) res = await t.api('POST', '/register/start', { body: { email: 'often@example.com' } });
    expect(res!.status).toBe(429);
    expect(Number(res!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('openapi.json documents the 413 every POST can answer', () => {
  it('each POST lists 413 with the error body, and a body over 1 MB gets it', async () => {
    const posts = Object.entries(doc.paths).filter(([, item]) => item.post);
    expect(posts.length).toBeGreaterThan(5);
    expect(posts.filter(([, item]) => !item.post!.responses['413']?.content?.['application/json']).map(([p]) => p)).toEqual([]);
    const a = await t.account({ credits: 0 });
    const res = await t.api('POST', '/unlock', { key: a.key, body: { transcript: 'x'.repeat(1024 * 1024 + 1) } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });
});
