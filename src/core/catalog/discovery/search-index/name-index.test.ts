import { describe, expect, it } from 'vitest';
import { searchKey } from '../../ingest/search-key.js';
import { fullScore, popularityWeight, ranking, shortlistScore } from './search-ranking.js';
import { createNameIndex } from './name-index.js';
import { trigramsOf } from './trigrams.js';
import { osaDistance, wordMatch } from './word-similarity.js';

function indexOf(shows: [number, string, number][]) {
  const index = createNameIndex();
  for (const [id, title, popularity] of shows) index.upsert({ id, name: searchKey(title).name, popularity });
  return {
    index,
    top: (q: string, n = 3) => {
      const k = searchKey(q);
      return index.search(k.name, k.compact, n).map((r) => r.id);
    },
  };
}

describe('trigrams and word similarity', () => {
  it('takes trigrams per space-padded word, plus those across word boundaries', () => {
    expect(trigramsOf('the')).toEqual([' th', 'the', 'he ']);
    expect(trigramsOf('dh unplugged')).toEqual(expect.arrayContaining(['dh ', ' un', 'dhu', 'hun']));
    expect(new Set(trigramsOf('dh unplugged')).size).toBe(trigramsOf('dh unplugged').length);
  });

  it('counts edits, transpositions included, and gives up past the limit', () => {
    expect(osaDistance('rogen', 'rogan')).toBe(1);
    expect(osaDistance('teh', 'the')).toBe(1);
    expect(osaDistance('rogen', 'rogers')).toBe(2);
    expect(osaDistance('abc', 'xyz', 1)).toBe(2);
    expect(osaDistance('', 'abc')).toBe(3);
  });

  it('matches query words to title words, glued either way', () => {
    expect(wordMatch('joe rogen', 'the joe rogan experience')).toBeCloseTo(0.875);
    expect(wordMatch('dhunplugged', 'dh unplugged')).toBe(1);
    expect(wordMatch('smart less', 'smartless')).toBe(1);
    expect(wordMatch('huberman', 'hubermanlab')).toBeCloseTo(0.85);
  });
});

describe('the in-memory show index', () => {
  const corpus: [number, string, number][] = [
    [1, 'The Daily', 29],
    [2, 'The Dale Jr. Download', 12],
    [3, 'The Joe Rogan Experience', 29],
    [4, 'Joe Rogers Report', 3],
    [5, 'DH Unplugged', 5],
    [6, 'Unplugged Conversations', 4],
    [7, 'The Dale', 0],
  ];

  it('ranks by relevance, with popularity breaking typo ties and an exact title winning', () => {
    const { top } = indexOf(corpus);
    expect(top('the daly')[0]).toBe(1);
    expect(top('joe rogen')[0]).toBe(3);
    expect(top('dhunplugged')[0]).toBe(5);
    expect(top('the dale')[0]).toBe(7);
  });

  it('updates and removals take effect; unchanged rows cost nothing', () => {
    const { index, top } = indexOf(corpus);
    index.upsert({ id: 7, name: searchKey('Quiet Title').name, popularity: 0 });
    expect(top('the dale')[0]).not.toBe(7);
    expect(top('quiet title')).toEqual([7]);
    index.remove(7);
    expect(top('quiet title')).toEqual([]);
    const size = index.size;
    index.upsert({ id: 1, name: 'the daily', popularity: 29 });
    expect(index.size).toBe(size);
  });

  it('rebuilds itself when dead slots pile up, losing nothing', () => {
    const { index, top } = indexOf(corpus);
    for (let round = 0; round < 3; round++) {
      for (let id = 100; id < 6000; id++) index.upsert({ id, name: `filler ${id} round ${round}`, popularity: round });
    }
    expect(index.size).toBe(corpus.length + 5900);
    expect(top('joe rogen')[0]).toBe(3);
    expect(top('filler 4321 round 2', 1)).toEqual([4321]);
  });

  it('a built index ranks as one filled show by show, and keeps taking changes after its lists are merged', () => {
    const shows = corpus.map(([id, title, popularity]) => ({ id, name: searchKey(title).name, popularity }));
    const built = createNameIndex();
    built.build(shows);
    const { index: filled } = indexOf(corpus);
    for (const q of ['the daly', 'joe rogen', 'dhunplugged', 'the dale']) {
      const k = searchKey(q);
      expect(built.search(k.name, k.compact, 5)).toEqual(filled.search(k.name, k.compact, 5));
    }
    // Enough new shows that the appended postings are merged into the built ones.
    for (let id = 100; id < 3100; id++) built.upsert({ id, name: `show number ${id} of the week`, popularity: 1 });
    built.upsert({ id: 3, name: 'the joe rogan experience', popularity: 29 });
    expect(built.size).toBe(corpus.length + 3000);
    const k = searchKey('joe rogen');
    expect(built.search(k.name, k.compact, 1)[0]!.id).toBe(3);
    expect(built.search('show number 2999 of the week', 'shownumber2999oftheweek', 1)[0]!.id).toBe(2999);
    expect(built.search('show number 101 of the week', 'shownumber101oftheweek', 1)[0]!.id).toBe(101);
  });

  it('ranks as scoring every show one by one would, though it skips shows that cannot make the shortlist', () => {
    // Few words, many titles: thousands of shows share most of a query's trigrams.
    const words = ['the', 'daily', 'money', 'show', 'history', 'talk', 'crime', 'true', 'science', 'weekly', 'news', 'hour'];
    const shows = Array.from({ length: 4000 }, (_, id) => ({
      id,
      name: [0, 1, 2, 3].map((k) => words[(id * (k * 7 + 3) + k * k + (id >> (k + 2))) % words.length]).join(' '),
      popularity: ((id * 7919) % 4001) / 133, // distinct: no ties at the shortlist's edge
    }));
    const index = createNameIndex();
    index.build(shows);
    const everyShow = (name: string, limit: number) => {
      const q = new Set(trigramsOf(name));
      const query = { name, compact: name.replaceAll(' ', ''), trigrams: q.size };
      return shows
        .map((show) => {
          const own = trigramsOf(show.name);
          const hits = own.filter((t) => q.has(t)).length;
          return { show, hits, size: own.length, pop: popularityWeight(show.popularity) };
        })
        .filter((c) => c.hits >= Math.ceil(ranking.minShare * q.size))
        .sort((a, b) => shortlistScore(b.hits, q.size, b.size, b.pop) - shortlistScore(a.hits, q.size, a.size, a.pop))
        .slice(0, ranking.shortlist)
        .map((c) => ({ id: c.show.id, score: fullScore(query, c.show.name, c.hits, c.size, c.pop), pop: c.pop }))
        .sort((a, b) => b.score - a.score || b.pop - a.pop || a.id - b.id)
        .slice(0, limit)
        .map((r) => r.id);
    };
    for (const q of ['the daily money show', 'true crime weekly', 'sceince hour', 'historytalk', 'the news']) {
      const k = searchKey(q);
      expect(index.search(k.name, k.compact, 20).map((r) => r.id)).toEqual(everyShow(k.name, 20));
    }
  });

  it('finds nothing for an empty query or an empty index', () => {
    expect(createNameIndex().search('serial', 'serial', 5)).toEqual([]);
    expect(indexOf(corpus).index.search('', '', 5)).toEqual([]);
  });
});
