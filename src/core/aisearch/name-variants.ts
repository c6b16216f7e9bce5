import { doubleMetaphone } from 'double-metaphone';
import { editDistance } from './edit-distance.js';
import type { PreparedTranscript } from './prepared-transcript.js';

/** A place where a name may have been spoken, spelt differently. */
export interface VariantHit {
  token: number;
  /** Tokens covered: 2 or 3 when a name was split ("dash wood"). */
  length: number;
  weight: number;
  /** The transcript's spelling, words joined by spaces. */
  form: string;
}

/** Names shorter than this are not matched loosely: too many short words sound alike. */
export const MIN_NAME_LENGTH = 5;

interface Candidate {
  joined: string;
  form: string;
  parts: string[];
  tokens: number[];
  length: number;
}

function candidates(p: PreparedTranscript): Candidate[] {
  const cached = p.memo.get('variant-candidates') as Candidate[] | undefined;
  if (cached) return cached;
  const byJoined = new Map<string, Candidate>();
  const add = (first: number, length: number): void => {
    const parts = p.norm.slice(first, first + length);
    if (parts.some((w) => !/^[a-z]+$/.test(w))) return;
    const joined = parts.join('');
    if (joined.length < 4) return;
    const key = `${length}:${joined}:${parts.join(' ')}`;
    const c = byJoined.get(key);
    if (c) c.tokens.push(first);
    else byJoined.set(key, { joined, form: parts.join(' '), parts, tokens: [first], length });
  };
  for (let i = 0; i < p.norm.length; i++) {
    add(i, 1);
    // Recognisers split unknown names into known short words; join neighbours within a segment.
    for (let n = 2; n <= 3; n++) {
      const last = i + n - 1;
      if (last < p.norm.length && p.tokenSegment[last] === p.tokenSegment[i]) add(i, n);
    }
  }
  const list = [...byJoined.values()];
  p.memo.set('variant-candidates', list);
  return list;
}

function codes(word: string, memo: Map<string, [string, string]>): [string, string] {
  let c = memo.get(word);
  if (!c) {
    c = doubleMetaphone(word);
    memo.set(word, c);
  }
  return c;
}

function soundsAlike(a: [string, string], b: [string, string]): boolean {
  let best = Infinity;
  for (const x of a) for (const y of b) if (x && y) best = Math.min(best, editDistance(x, y, 2));
  const shortest = Math.min(a[0].length, b[0].length);
  return best === 0 || (best === 1 && shortest >= 3);
}

/**
 * Places where `name` (normalised, letters only) may have been recognised
 * under another spelling: a single word or two or three neighbouring words
 * whose letters are close (edit distance) and whose Double Metaphone codes
 * agree, e.g. "elinor" as "eleanor" or "dashwood" as "dash wood". Exact
 * spellings are left to the exact matcher.
 *
 * A transcript word that is itself an everyday word ("marriage") must be
 * closer to count than an unknown one ("daschle"), since recognisers mostly
 * err into real words and real words sit close to many names.
 *
 * @param strict For everyday words: only one-letter slips of the same sound count. Default: false.
 * @param isCommonWord Tells everyday words from names. Default: nothing is an everyday word.
 */
export function findNameVariants(
  p: PreparedTranscript,
  name: string,
  strict = false,
  isCommonWord: (word: string) => boolean = () => false,
): VariantHit[] {
  if (name.length < MIN_NAME_LENGTH || !/^[a-z]+$/.test(name)) return [];
  const memoKey = `variants:${strict ? 's' : 'n'}:${name}`;
  const cached = p.memo.get(memoKey) as VariantHit[] | undefined;
  if (cached) return cached;
  let phoneMemo = p.memo.get('metaphone') as Map<string, [string, string]> | undefined;
  if (!phoneMemo) {
    phoneMemo = new Map();
    p.memo.set('metaphone', phoneMemo);
  }
  const nameCodes = doubleMetaphone(name);
  const hits: VariantHit[] = [];
  const maxLenDiff = Math.max(2, Math.floor(name.length * 0.4));
  for (const c of candidates(p)) {
    if (c.joined === name && c.length === 1) continue;
    if (Math.abs(c.joined.length - name.length) > maxLenDiff) continue;
    if (c.length === 3 && name.length < 8) continue;
    // "dashwood to" is the exact name plus a word, already found as the name itself.
    if (c.length > 1 && c.parts.includes(name)) continue;
    const longest = Math.max(c.joined.length, name.length);
    const maxD = strict ? 1 : Math.floor(longest * 0.4);
    const d = editDistance(name, c.joined, maxD);
    if (d > maxD) continue;
    const ratio = d / longest;
    const alike = soundsAlike(nameCodes, codes(c.joined, phoneMemo));
    let accept: boolean;
    const common = c.length === 1 && isCommonWord(c.joined);
    // A recogniser often cuts a name short into a real word: "brandon" -> "brand".
    const truncated = name.startsWith(c.joined) && c.joined.length >= 5 && c.joined.length >= 0.7 * name.length;
    // An everyday word one letter off another ("better" for "letter") is a different word, not a slip.
    if (strict) accept = d <= 1 && name.length >= 6 && alike && !common;
    else if (common) accept = alike && (d <= 1 || ratio <= 0.25 || truncated);
    else if (c.length === 1) accept = (alike && ratio <= 0.34) || d <= 1;
    else accept = d <= 1 || (alike && ratio <= 0.3);
    if (!accept) continue;
    const weight = strict ? 0.6 : (c.length === 1 ? 0.85 : 0.8) - 0.6 * ratio;
    for (const token of c.tokens) hits.push({ token, length: c.length, weight, form: c.form });
  }
  p.memo.set(memoKey, hits);
  return hits;
}
