import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ALIASES, MAX_COST, MAX_DEPTH, MAX_TOKENS } from '../../src/graphql/limits.js';
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

  it('every limit refuses with the REST code in extensions.code, as every other error', async () => {
    const a = await t.account();
    const aliased = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');
    // Nested shows and episodes; validated before anything runs, so the show need not exist.
    const nested = (levels: number, leaf: string): string => (levels === 0 ? leaf : `show { episodes { ${nested(levels - 1, leaf)} } }`);
    const refused: [string, string][] = [
      ['depth', `{ episodes(feedId: 1) { nodes { ${nested(MAX_DEPTH / 2, 'title')} } } }`],
      ['aliases', `{ ${aliased(MAX_ALIASES + 1, 'me { credits }')} }`],
      ['tokens', `{ me { ${Array.from({ length: MAX_TOKENS }, () => 'credits').join(' ')} } }`],
      [
        'cost',
        `{ ${aliased(MAX_ALIASES, `episodes(feedId: 1) { nodes { ${nested(2, '...E')} } }`)} }
         fragment E on Episode { show { title author } title guid audioUrl pageUrl transcriptId transcriptUrl transcriptStatus description }`,
      ],
    ];
    const limit = { depth: MAX_DEPTH, aliases: MAX_ALIASES, tokens: MAX_TOKENS, cost: MAX_COST };
    for (const [what, query] of refused) {
      const res = await t.gql(query, {}, a.key);
      expect(res.body.data, what).toBeUndefined();
      expect(res.body.errors?.[0]?.message, what).toMatch(new RegExp(`${what === 'cost' ? 'Cost' : what === 'tokens' ? 'Token' : what === 'aliases' ? 'Aliases' : 'depth'} limit of ${limit[what as keyof typeof limit]}`, 'i'));
      expect(res.body.errors?.[0]?.extensions?.code, what).toBe('invalid_request');
    }
    // Malformed and invalid documents alike: a client handles one set of codes.
    for (const query of ['{ me { ', '{ mee { credits } }']) expect((await t.gql(query, {}, a.key)).body.errors?.[0]?.extensions?.code, query).toBe('invalid_request');
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
