import { isNear, type Hit } from './concept-hits.js';
import type { PreparedTranscript } from './prepared-transcript.js';

/** Words after which the next word is a noun: "the present", "such a present", "his present". */
const NOUN_MARKERS: ReadonlySet<string> = new Set('a an the my your his her its our their this these those every another'.split(' '));

/** What a relative counts as the first word of a compound. */
const COMPOUND_FACTOR = 0.5;

/** Sure members of a class that vouch for a doubtful one. */
const FELLOW_MEMBERS = 2;
/** What a narrower word written as a name counts. */
const NAME_FACTOR = 0.5;

/** True when the hit's first word is capitalised and does not start a sentence. */
function isNameUse(p: PreparedTranscript, h: Hit): boolean {
  const at = p.tokenStart[h.token];
  const first = p.text.charAt(at);
  if (first === first.toLowerCase()) return false;
  const before = p.text.slice(Math.max(0, at - 3), at).trimEnd();
  // Start of the transcript or of a sentence; a whole segment in capitals says nothing either.
  if (before === '' || /[.!?:"“]$/.test(before) || p.segmentStarts.includes(at)) return false;
  const word = p.text.slice(at, at + p.norm[h.token].length);
  return word !== word.toUpperCase();
}

/** True when the token's first letter is a capital. */
function capitalised(p: PreparedTranscript, token: number): boolean {
  const first = p.text.charAt(p.tokenStart[token]);
  return first !== first.toLowerCase();
}

/** True when tokens `a` and `b` (a before b) stand in one segment with only spaces between. */
function adjoin(p: PreparedTranscript, a: number, b: number): boolean {
  return a >= 0 && b < p.norm.length && p.tokenSegment[a] === p.tokenSegment[b] && /^\s+$/.test(p.text.slice(p.tokenEnd[a], p.tokenStart[b]));
}

/**
 * True when a capitalised word joins the hit into a longer name ("Bruno Mars",
 * "Paris Hilton"). A capital that only starts the sentence does not count,
 * unless the word is no everyday word ("Michael Jordan retired").
 */
function inLongerName(p: PreparedTranscript, h: Hit, isCommonWord: (word: string) => boolean): boolean {
  const before = h.token - 1;
  const after = h.token + h.length;
  if (adjoin(p, h.token + h.length - 1, after) && capitalised(p, after)) return true;
  if (!adjoin(p, before, h.token) || !capitalised(p, before)) return false;
  return isNameUse(p, { ...h, token: before, length: 1 }) || !isCommonWord(p.norm[before]);
}

/**
 * What a transcript's casing says of a relative that names one thing (a
 * WordNet instance: "Nero" for "Roman emperor"). Part of a longer name, it
 * names someone else; a spelling that is also an everyday word ("turkey",
 * "Barber" the composer) needs a capital inside a sentence to be the name.
 */
function instanceFactor(p: PreparedTranscript, h: Hit, isCommonWord: (word: string) => boolean): number {
  if (inLongerName(p, h, isCommonWord)) return NAME_FACTOR;
  if (h.doubt?.instance === 'word' && !isNameUse(p, h)) return NAME_FACTOR;
  return 1;
}

/**
 * One-word spellings that some hit uses as a name ("Analysts expect Apple to")
 * and that the transcript never writes in lower case: one sense per discourse,
 * so the same word starting a sentence ("Apple announced…") is that name too.
 */
function namesInDiscourse(p: PreparedTranscript, hits: Hit[]): Set<string> {
  const named = new Set(hits.filter((h) => h.length === 1 && h.doubt?.narrower && !h.doubt.instance && isNameUse(p, h)).map((h) => p.norm[h.token]));
  if (named.size === 0) return named;
  for (let i = 0; i < p.norm.length; i++) {
    if (!named.has(p.norm[i])) continue;
    const first = p.text.charAt(p.tokenStart[i]);
    if (first === first.toLowerCase()) named.delete(p.norm[i]);
  }
  return named;
}

/**
 * Weighs a relative by what its surroundings in the transcript show about
 * its sense. Three kinds of evidence, all from the transcript's own words:
 *
 * - Part of speech: a relative linked through a noun sense but mostly used as
 *   another part of speech ("present" for "gift", usually the adjective) is
 *   used as a noun right after a determiner or possessive, so that discount
 *   does not apply there.
 * - One sense per discourse: a relative linked through one of its less
 *   frequent senses is used in that sense when it occurs near the topic's own
 *   words (within a few units); a speaker keeps to one sense of a word
 *   through one conversation, so the discount is lifted at every occurrence
 *   of that same spelling. Other spellings sharing its stem ("presently") are
 *   not vouched for.
 *
 * - Compounds: a one-word relative that is the first word of a compound
 *   WordNet knows ("washing" in "washing machine", "car" in "car park") names
 *   something else there, and counts half.
 *
 * - Fellow members: when the transcript names two or more narrower words of
 *   the topic in their sure sense ("beans", "tomatoes" for "vegetables"), it
 *   is talking about that class, and a doubtful member ("carrot", first the
 *   plant) is taken in its class sense too.
 * - Names: a narrower word written with a capital inside a sentence ("expect
 *   Apple to", "Jaguar") names a company or a person there, not a member of
 *   the class, and counts half; so does the same word starting a sentence
 *   when the transcript never writes it in lower case.
 *
 * - Instances: a relative that names one thing ("Nero") is taken as that
 *   name unless a capitalised neighbour makes it part of a longer one
 *   ("Bruno Mars"), or it is also an everyday word not written as a name.
 *
 * Hits without doubt (exact words, respellings, plain synonyms) pass through unchanged.
 *
 * @param isCompound Tells whether words form one WordNet lemma. Default: nothing is a compound.
 */
export function weighSenseEvidence(
  p: PreparedTranscript,
  hits: Hit[],
  isCompound: (words: string[]) => boolean = () => false,
  isCommonWord: (word: string) => boolean = () => true,
): Hit[] {
  if (!hits.some((h) => h.doubt)) return hits;
  const surface = (h: Hit): string => p.norm.slice(h.token, h.token + h.length).join(' ');
  const exactUnits = hits.filter((h) => h.kind === 'exact').map((h) => p.tokenUnit[h.token]);
  exactUnits.sort((a, b) => a - b);
  const settled = new Set<string>();
  for (const h of hits) {
    if (h.doubt && h.doubt.sense < 1 && isNear(exactUnits, p.tokenUnit[h.token])) settled.add(surface(h));
  }
  const named = namesInDiscourse(p, hits);
  const asName = (h: Hit) => !h.doubt?.instance && (isNameUse(p, h) || (h.length === 1 && named.has(p.norm[h.token])));
  const sureMembers = new Set(hits.filter((h) => h.doubt?.narrower && h.doubt.sense === 1 && h.doubt.pos === 1 && !asName(h)).map(surface));
  return hits.map((h) => {
    if (!h.doubt) return h;
    let weight = h.weight;
    const vouched = settled.has(surface(h)) || (h.doubt.narrower && sureMembers.size >= FELLOW_MEMBERS && !sureMembers.has(surface(h)));
    if (h.doubt.sense < 1 && vouched) weight /= h.doubt.sense;
    if (h.doubt.narrower && asName(h)) weight *= NAME_FACTOR;
    if (h.doubt.instance) weight *= instanceFactor(p, h, isCommonWord);
    if (h.doubt.pos < 1 && h.doubt.noun && h.token > 0 && NOUN_MARKERS.has(p.norm[h.token - 1])) weight /= h.doubt.pos;
    const next = h.token + 1;
    if (h.length === 1 && next < p.norm.length && p.tokenSegment[next] === p.tokenSegment[h.token] && isCompound([p.norm[h.token], p.norm[next]])) {
      weight *= COMPOUND_FACTOR;
    }
    if (weight === h.weight) return h;
    // A lifted sense is settled: later steps must not doubt it again.
    return { ...h, weight, doubt: vouched ? { ...h.doubt, sense: 1 } : h.doubt };
  });
}
