import { aPrefixRelatives } from './prefixed-adjectives.js';
import { STOPWORDS } from './stopwords.js';
import { baseFormCandidates } from './word-forms.js';
import { createWordnetReader, type WordnetPos, type WordnetReader, type WordnetSynset } from './wordnet-reader.js';

/**
 * `member`: a narrower word two or three steps below a noun that names a
 * category ("tomato" under "vegetable", through "solanaceous vegetable").
 */
export type Relation = 'synonym' | 'hypernym' | 'hyponym' | 'member' | 'derived' | 'similar' | 'head';

export interface RelatedTerm {
  /** Lowercase lemma; multi-word lemmas keep their spaces. */
  lemma: string;
  /** 0–1, lower than an exact match (1). */
  weight: number;
  relation: Relation;
  /** Part of speech of the sense that links it; null for class heads. */
  pos: WordnetPos | null;
  /**
   * Factor inside `weight` because the linking sense is not the lemma's most
   * frequent one (1 when it is). Evidence from the transcript may lift it.
   */
  senseDiscount: number;
  /** Factor inside `weight` because the lemma is mostly used as another part of speech (1 when not). */
  posDiscount: number;
  /** True when it comes from the topic word's first sense in its part of speech, the sense it almost surely means. */
  firstSense: boolean;
  /**
   * Set when it names one thing, a WordNet instance ("Nero" under "Roman
   * emperor", "Jupiter" under "planet"): `name` when every sense of the
   * spelling is such a name, `word` when it is also an everyday word
   * ("Barber" the composer, "turkey"). Null for classes.
   */
  instance: 'name' | 'word' | null;
}

export interface RelatedTerms {
  /** Synonyms and one-step relatives of a normalised word or compound, strongest first. */
  related(word: string): RelatedTerm[];
  /** True when WordNet knows the word in a sense seen in its tagged corpus (an everyday word, not a name). */
  isCommonWord(word: string): boolean;
  /** True when WordNet has the word (or a base form of it) at all. */
  isKnown(word: string): boolean;
  /** Dictionary forms WordNet knows for an inflected word ("buses" -> "bus"), the word itself excluded. */
  baseForms(word: string): string[];
  /** True when WordNet lists the words as one lemma ("ice cream", "sports car"). */
  isCompound(words: string[]): boolean;
}

// Relatives so general that they would match half of any conversation.
const tooGeneral = new Set(
  `thing object entity whole unit person individual someone somebody being act action activity event state
  condition time way part piece matter kind sort type form group set place point area make do get give take
  have go come use put man woman cause case fact order issue work change number amount quantity measure
  abstraction attribute relation property quality feature content idea concept move turn run let see tell
  know think look find show hold keep lead bring feel seem become mean leave call try end begin start stop
  side line head hand body people life world day year good bad big small new old high low right left
  artifact artefact instrumentality structure system organism animal living thing physical entity
  communication message statement location region psychological feature process happening relation
  creation device container covering commodity goods`.split(/\s+/),
);

const maxSenses: Record<WordnetPos, number> = { n: 3, v: 2, a: 2, r: 1 };
const senseFactor = [1, 0.85, 0.7];
const MAX_HYPONYM_SYNSETS = 150;
/** Named instances read under one sense: WordNet files 400–700 rivers, cities or composers under one class. */
const MAX_INSTANCE_SYNSETS = 1000;
/**
 * Members of a category: narrower words below the one-step hyponyms, weighted
 * by depth. Both weights stay above the single-concept threshold (0.45) so a
 * plain member alone is found, and fall below it with any sense or part-of-
 * speech doubt ("pepper" the spice is no vegetable unless the transcript says so).
 */
const memberWeight = [0, 0, 0.5, 0.47];
const MAX_MEMBER_DEPTH = 3;
/** A category with more members than this ("food", "person") is too broad to stand for them: none are added. */
const MAX_MEMBER_SYNSETS = 400;

/**
 * WordNet synonyms and one-step relatives (hypernyms, hyponyms, derived
 * forms), weighted below exact matches and by how common the sense is. A
 * relative is kept only when the linking sense is one of its own two most
 * frequent senses, so "car" gains "automobile" but not "machine".
 *
 * The word's senses read are those seen in WordNet's tagged corpus, plus any
 * later sense with exactly the first sense's words (one meaning split by
 * regular polysemy). "a-" adjectives and their bases ("asleep", "sleep") are
 * joined too when the adjective's definition uses the base word. Each
 * relative says which of its ambiguity discounts are inside its weight, so
 * the transcript's own evidence can lift them (see `weighSenseEvidence`).
 *
 * @param reader Default: a new {@link createWordnetReader} over the bundled database.
 */
export interface RelatedTermsOptions {
  /**
   * How far below a category noun its members are read: 1 keeps only the
   * one-step hyponyms, 3 reaches "tomato" from "vegetable". Default: 3.
   */
  memberDepth?: number;
}

export function createRelatedTerms(reader: WordnetReader = createWordnetReader(), options: RelatedTermsOptions = {}): RelatedTerms {
  const maxMemberDepth = Math.min(MAX_MEMBER_DEPTH, Math.max(1, Math.floor(options.memberDepth ?? MAX_MEMBER_DEPTH)));
  const cache = new Map<string, RelatedTerm[]>();
  const compounds = new Map<string, boolean>();
  const posList: WordnetPos[] = ['n', 'v', 'a', 'r'];

  function entriesOf(word: string) {
    const found = [];
    for (const pos of posList) {
      for (const cand of baseFormCandidates(word, pos)) {
        const e = reader.lookup(cand, pos);
        if (e) {
          found.push(e);
          break;
        }
      }
    }
    return found;
  }

  function compute(word: string): RelatedTerm[] {
    const entries = entriesOf(word);
    if (entries.length === 0) return [];
    const self = new Set([word, ...entries.map((e) => e.lemma)]);
    const maxTagged = Math.max(...entries.map((e) => e.tagSenseCount));
    const best = new Map<string, RelatedTerm>();

    // True when the main sense of `head` is an ancestor of `synset`, so "motor vehicle" may stand
    // for "vehicle" but "medium of exchange" not for "exchange".
    const headIsAncestor = (head: string, synset: WordnetSynset): boolean => {
      const own = reader.lookup(head, 'n');
      // A head with many senses ("game") names no class reliably.
      if (!own || own.offsets.length > 4) return false;
      const main = own.offsets[0];
      let frontier = [synset];
      for (let depth = 0; depth < 5 && frontier.length > 0; depth++) {
        const next: WordnetSynset[] = [];
        for (const s of frontier) {
          for (const p of s.pointers) {
            if (p.symbol !== '@' || p.pos !== 'n') continue;
            if (p.offset === main) return true;
            next.push(reader.synset('n', p.offset));
          }
        }
        frontier = next.slice(0, 8);
      }
      return false;
    };

    // The senses seen in the tagged corpus, plus later senses with exactly the first sense's words:
    // WordNet splits one meaning by regular polysemy ("inheritance" the act, and what is inherited),
    // and the corpus often saw only one side of it.
    const sensesToRead = (pos: WordnetPos, offsets: number[], tagged: number): { synset: WordnetSynset; twin: boolean }[] => {
      const count = Math.min(maxSenses[pos], Math.max(1, tagged), offsets.length);
      const out = offsets.slice(0, count).map((o) => ({ synset: reader.synset(pos, o), twin: false }));
      const first = out[0].synset.words.join('|');
      for (let i = count; i < offsets.length && out.length < maxSenses[pos]; i++) {
        const synset = reader.synset(pos, offsets[i]);
        if (synset.words.length > 1 && synset.words.join('|') === first) out.push({ synset, twin: true });
      }
      return out;
    };

    // True when every sense WordNet has for the spelling is an instance: it cannot be an everyday word.
    const onlyNames = (lemma: string, via: WordnetSynset): boolean =>
      posList.every((pos) =>
        baseFormCandidates(lemma, pos).every((b) => {
          const own = reader.lookup(b, pos);
          if (!own) return true;
          if (pos !== 'n' || b !== lemma) return false;
          return own.offsets.every((o) => o === via.offset || reader.synset('n', o).pointers.some((q) => q.symbol === '@i'));
        }),
      );

    const add = (lemma: string, weight: number, relation: Relation, via: WordnetSynset | null, firstSense = false): void => {
      if (self.has(lemma) || !/^[a-z][a-z' -]*[a-z]$/.test(lemma)) return;
      const single = !lemma.includes(' ');
      const acronym = via?.acronyms.includes(lemma) ?? false;
      if (single && ((lemma.length < 3 && !acronym) || STOPWORDS.has(lemma) || tooGeneral.has(lemma))) return;
      if (tooGeneral.has(lemma)) return;
      // A member spelt like a plural of an everyday word ("fives" the ball game) would match that word.
      if (relation === 'member' && single && baseFormCandidates(lemma, 'n').some((b) => b !== lemma && (reader.lookup(b, 'n')?.tagSenseCount ?? 0) > 0)) return;
      let w = weight;
      let senseDiscount = 1;
      let posDiscount = 1;
      // Phrasal verbs ("take in" for "kid") are mostly idioms whose words mean something else alone.
      if (!single && via?.pos === 'v') w *= 0.7;
      if (single && via && !acronym) {
        const own = reader.lookup(lemma, via.pos);
        const rank = own ? own.offsets.indexOf(via.offset) : -1;
        // A member's senses that the tagged corpus never saw are in no particular order ("carrot" is first
        // the plant, then its root, then the vegetable), so any of them may link it.
        const untaggedMember = relation === 'member' && own !== null && own.tagSenseCount === 0;
        if (rank >= 2 && !untaggedMember) return;
        if (rank === 1 && !untaggedMember) senseDiscount = 0.8;
        // Untagged senses are listed in no particular order, so a polysemous word
        // ("lettuce" as slang for money) is trusted less unless this is its tagged first sense.
        else if (own && own.offsets.length > 1 && own.tagSenseCount === 0) senseDiscount = 0.75;
        // A word mostly used as another part of speech ("electric" the adjective) rarely means this sense.
        const ownTagged = own?.tagSenseCount ?? 0;
        const otherTagged = Math.max(
          0,
          ...posList.filter((p) => p !== via.pos).map((p) => reader.lookup(lemma, p)?.tagSenseCount ?? 0),
        );
        if ((ownTagged === 0 && otherTagged > 0) || otherTagged > 2 * ownTagged + 1) posDiscount = 0.6;
      }
      w *= senseDiscount * posDiscount;
      const prev = best.get(lemma);
      if (prev && prev.weight >= w) return;
      // Read only for the link kept: telling a name from an everyday word costs WordNet lookups.
      const instance = via?.pointers.some((q) => q.symbol === '@i') ? (onlyNames(lemma, via) ? 'name' : 'word') : null;
      best.set(lemma, { lemma, weight: w, relation, pos: via?.pos ?? null, senseDiscount, posDiscount, firstSense, instance });
    };

    // The category's members: hyponyms of hyponyms, breadth first, down to the member depth. A category
    // whose tree is larger than MAX_MEMBER_SYNSETS names too much to match any one of its members.
    const addMembers = (root: WordnetSynset): void => {
      const levels: WordnetSynset[][] = [[root]];
      const seen = new Set([root.offset]);
      let total = 0;
      for (let depth = 1; depth <= maxMemberDepth; depth++) {
        const next: WordnetSynset[] = [];
        for (const s of levels[depth - 1]) {
          for (const p of s.pointers) {
            if ((p.symbol !== '~' && p.symbol !== '~i') || p.pos !== 'n' || seen.has(p.offset)) continue;
            seen.add(p.offset);
            const child = reader.synset('n', p.offset);
            // The category's own subclasses must be filed first under it or be named for it: WordNet lists
            // "section" under "music" too, as a second class, and everything below it would follow, while
            // "root vegetable" is filed first under "root". Deeper down a second class is fine ("football"
            // under "contact sport").
            const parent = child.pointers.find((q) => q.symbol === '@' || q.symbol === '@i');
            const namedFor = child.words.some((w) => root.words.includes(w.slice(w.lastIndexOf(' ') + 1)));
            if (depth > 1 || parent?.offset === s.offset || namedFor) next.push(child);
          }
        }
        total += next.length;
        if (total > MAX_MEMBER_SYNSETS) return;
        levels.push(next);
      }
      for (let depth = 2; depth < levels.length; depth++) {
        for (const s of levels[depth]) {
          // A phrase that is only a member's alias ("three year old" for a horse) reads as its everyday words.
          for (const w of s.words) if (w === s.words[0] || !w.includes(' ')) add(w, memberWeight[depth], 'member', s, true);
        }
      }
    };

    for (const e of entries) {
      if (maxTagged > 0 && e.tagSenseCount === 0) continue;
      const posFactor = e.tagSenseCount === maxTagged ? 1 : 0.85;
      const read = sensesToRead(e.pos, e.offsets, e.tagSenseCount);
      for (let r = 0; r < read.length; r++) {
        const m = senseFactor[r] * posFactor;
        const syn = read[r].synset;
        const selfIndex = syn.words.findIndex((w) => self.has(w)) + 1;
        // Narrower terms and class heads only for main senses: those of rare senses are mostly noise.
        const mainSense = r === 0 || read[r].twin || (r === 1 && posFactor === 1 && e.tagSenseCount >= 2);
        for (const w of syn.words) add(w, 0.8 * m, 'synonym', syn);
        let hyponyms = 0;
        let instances = 0;
        for (const p of syn.pointers) {
          if (p.symbol === '@' || p.symbol === '@i') {
            const hyper = reader.synset(p.pos, p.offset);
            for (const w of hyper.words) {
              add(w, 0.55 * m, 'hypernym', hyper);
              // The head of a compound hypernym often names the wider class: "motor vehicle" -> "vehicle".
              const parts = w.split(' ');
              const head = parts[parts.length - 1];
              if (r === 0 && posFactor === 1 && parts.length > 1 && p.pos === 'n' && headIsAncestor(head, hyper)) add(head, 0.5 * m, 'head', null);
            }
          } else if ((p.symbol === '~' || p.symbol === '~i') && mainSense && (p.symbol === '~' ? hyponyms++ < MAX_HYPONYM_SYNSETS : instances++ < MAX_INSTANCE_SYNSETS)) {
            const hypo = reader.synset(p.pos, p.offset);
            for (const w of hypo.words) add(w, 0.55 * m, 'hyponym', hypo, r === 0 || read[r].twin);
          } else if ((p.symbol === '+' || p.symbol === '\\') && (p.sourceWord === 0 || p.sourceWord === selfIndex)) {
            const target = reader.synset(p.pos, p.offset);
            const words = p.targetWord > 0 ? [target.words[p.targetWord - 1]] : target.words;
            for (const w of words) if (w) add(w, 0.7 * m, 'derived', target);
            // The other members of the derived synset: "bicycle" the noun -> "cycle" the verb.
            for (const w of target.words) add(w, 0.55 * m, 'derived', target);
          } else if (p.symbol === '&') {
            const similar = reader.synset(p.pos, p.offset);
            for (const w of similar.words) add(w, 0.55 * m, 'similar', similar);
          }
        }
      }
      if (e.pos === 'n' && (maxTagged === 0 || e.tagSenseCount === maxTagged)) addMembers(read[0].synset);
    }
    // "a-" adjectives and their bases ("asleep" and "sleep"), a derivation WordNet leaves unlinked.
    for (const lemma of self) for (const r of aPrefixRelatives(reader, lemma)) add(r.lemma, 0.7, 'derived', r.via);
    return [...best.values()].sort((a, b) => b.weight - a.weight);
  }

  return {
    related(word) {
      const key = word.trim().toLowerCase();
      let hit = cache.get(key);
      if (!hit) {
        hit = compute(key);
        if (cache.size > 20_000) cache.clear();
        cache.set(key, hit);
      }
      return hit;
    },
    isCommonWord(word) {
      return entriesOf(word.toLowerCase()).some((e) => e.tagSenseCount > 0);
    },
    isKnown(word) {
      return entriesOf(word.toLowerCase()).length > 0;
    },
    baseForms(word) {
      const key = word.toLowerCase();
      return [...new Set(entriesOf(key).map((e) => e.lemma))].filter((l) => l !== key && !l.includes(' '));
    },
    isCompound(words) {
      if (words.length < 2) return false;
      const phrase = words.join(' ');
      // Asked for every relative's neighbour on every query: remembered.
      const known = compounds.get(phrase);
      if (known !== undefined) return known;
      const last = words[words.length - 1];
      // Accept an inflected last word too: "sports cars" is the lemma "sports car".
      const lastForms = baseFormCandidates(last, 'n');
      const answer =
        posList.some((pos) => (pos === 'n' ? lastForms : [last]).some((l) => reader.lookup([...words.slice(0, -1), l].join(' '), pos))) ||
        reader.lookup(phrase, 'n') !== null;
      if (compounds.size > 100_000) compounds.clear();
      compounds.set(phrase, answer);
      return answer;
    },
  };
}
