import { findNameVariants } from './name-variants.js';
import type { PreparedTranscript } from './prepared-transcript.js';
import type { Concept, Doubt } from './topic-query.js';
import { irregularBaseOf } from './word-forms.js';

/**
 * True when a transcript word that shares a stem with `base` is really a form
 * of it: Porter stems "general" and "generous" alike, but a form keeps all but
 * the last two letters of its dictionary word. Porter also strips the "-er"
 * of a doer from longer words, and a doer is another word, not a form:
 * "producer" is not "produce" (which "vegetables" reaches as a relative),
 * nor "reporter" "report".
 */
export function isFormOf(word: string, base: string): boolean {
  if (word === base || irregularBaseOf(word) === base || irregularBaseOf(word) === irregularBaseOf(base)) return true;
  if (isDoerOf(word, base) || isDoerOf(base, word)) return false;
  const need = Math.max(3, base.length - 2);
  let i = 0;
  while (i < word.length && i < base.length && word[i] === base[i]) i++;
  return i >= need;
}

/** True when `longer` is `shorter` with a doer's "-er" or "-ers" ("manage" + "r", "report" + "ers"). */
function isDoerOf(longer: string, shorter: string): boolean {
  return longer.startsWith(shorter) && /^e?rs?$/.test(longer.slice(shorter.length)) && !/er$/.test(shorter);
}

/** Where one concept appears in the transcript, and how surely. */
export interface Hit {
  token: number;
  /** Tokens covered. */
  length: number;
  weight: number;
  /** What matched: the query word, a relative, or a transcript spelling of a name. */
  label: string;
  kind: 'exact' | 'related' | 'variant';
  /** For relatives: the ambiguity discounts inside `weight`. */
  doubt?: Doubt;
}

/** Every occurrence of the concept's alternatives and name variants in the prepared transcript. */
export function findHits(p: PreparedTranscript, concept: Concept, isCommonWord?: (word: string) => boolean): Hit[] {
  const hits: Hit[] = [];
  for (const alt of concept.alternatives) {
    const first = p.stemIndex.get(alt.stems[0]);
    if (!first) continue;
    const n = alt.stems.length;
    for (const t of first) {
      let ok = t + n <= p.stem.length;
      for (let k = 1; ok && k < n; k++) ok = p.stem[t + k] === alt.stems[k];
      for (let k = 0; ok && k < n; k++) ok = isFormOf(p.norm[t + k], alt.words[k]);
      if (ok) hits.push({ token: t, length: n, weight: alt.weight, label: alt.label, kind: alt.kind, doubt: alt.doubt });
    }
  }
  for (const variant of concept.variants) {
    for (const v of findNameVariants(p, variant.word, variant.strict, isCommonWord)) {
      hits.push({ token: v.token, length: v.length, weight: v.weight * variant.factor, label: v.form, kind: 'variant' });
    }
  }
  return hits;
}

/** Hits at least this strong show the transcript uses the topic's own words (or close synonyms). */
const STRONG = 0.6;
/** Relatives weaker than this ("vehicle" for "bicycle") are trusted only near strong hits. */
const WEAK = 0.55;
/** How many units away a strong hit still vouches for a weak one. */
const VOUCH_DISTANCE = 3;

/**
 * Discounts weak relatives that occur far from every strong hit of the same
 * concept. When a transcript talks about bikes in words, its "vehicles"
 * elsewhere are likely about something else; when it never names the topic
 * directly, the relatives keep their full weight. Narrower words keep it
 * too unless their own sense is in doubt: a "nap" is sleep wherever it
 * occurs, while a derived "married" may be about another wedding.
 */
export function discountStrayRelatives(p: PreparedTranscript, hits: Hit[]): Hit[] {
  const strong = hits.filter((h) => h.weight >= STRONG).map((h) => p.tokenUnit[h.token]);
  if (strong.length === 0) return hits;
  strong.sort((a, b) => a - b);
  const doubtful = (h: Hit): boolean => !h.doubt?.narrower || h.doubt.sense < 1 || h.doubt.pos < 1;
  return hits.map((h) =>
    h.weight < WEAK && doubtful(h) && !isNear(strong, p.tokenUnit[h.token]) ? { ...h, weight: h.weight * 0.8 } : h,
  );
}

/** True when a unit in `sortedUnits` lies within {@link VOUCH_DISTANCE} units of `unit`. */
export function isNear(sortedUnits: number[], unit: number): boolean {
  let lo = 0;
  let hi = sortedUnits.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sortedUnits[mid] < unit - VOUCH_DISTANCE) lo = mid + 1;
    else hi = mid;
  }
  return lo < sortedUnits.length && sortedUnits[lo] <= unit + VOUCH_DISTANCE;
}
