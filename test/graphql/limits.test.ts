import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ALIASES } from '../../src/graphql/limits.js';
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

  it('production hides the schema and field suggestions', async () => {
    const intro = await prod.gql('{ __schema { types { name } } }');
    expect(intro.body.errors?.length).toBeGreaterThan(0);
    const typo = await prod.gql('{ mee { credits } }');
    expect(JSON.stringify(typo.body.errors)).not.toMatch(/Did you mean/);
    const dev = await t.gql('{ mee { credits } }');
    expect(JSON.stringify(dev.body.errors)).toMatch(/Did you mean/);
  });
});
