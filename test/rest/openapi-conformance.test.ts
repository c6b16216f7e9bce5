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
