import { tokenize } from './text-tokens.js';
import { inflectedForms } from './word-forms.js';
import type { WordnetReader, WordnetSynset } from './wordnet-reader.js';

/** A word joined to another by the "a-" prefix ("sleep" and "asleep"), with the synset that shows it. */
export interface PrefixedRelative {
  lemma: string;
  via: WordnetSynset;
}

/** Senses of the adjective whose definitions are read; later senses are rare. */
const SENSES_READ = 2;

function definedBy(adjective: WordnetSynset, base: string): boolean {
  const forms = new Set(inflectedForms(base));
  // Only the definition, not the examples after it: "(of an action) in the process of happening; 'mischief afoot'".
  const definition = adjective.gloss.split(/;\s*"/)[0];
  return tokenize(definition).some((t) => forms.has(t.norm));
}

/**
 * The other half of an "a-" adjective pair: "sleep" → "asleep", "asleep" →
 * "sleep", "float" → "afloat". WordNet keeps these predicative adjectives
 * without a derivation pointer, so the pair is accepted only when the
 * adjective's own definition uses the base word ("asleep: in a state of
 * sleep"; "afloat: borne on the water; floating"). That keeps out lookalikes
 * such as "ahead"/"head" and "aware"/"ware", whose definitions do not, and
 * the negating "a-" of "atypical", whose base is itself an adjective.
 */
export function aPrefixRelatives(reader: WordnetReader, word: string): PrefixedRelative[] {
  if (!/^[a-z]{3,}$/.test(word)) return [];
  const out: PrefixedRelative[] = [];
  const pair = (base: string, adjective: string): void => {
    if (reader.lookup(base, 'a')) return;
    const baseEntry = reader.lookup(base, 'v') ?? reader.lookup(base, 'n');
    const adjEntry = reader.lookup(adjective, 'a');
    if (!baseEntry || !adjEntry) return;
    for (const offset of adjEntry.offsets.slice(0, SENSES_READ)) {
      const synset = reader.synset('a', offset);
      if (!definedBy(synset, base)) continue;
      out.push(adjective === word ? { lemma: base, via: reader.synset(baseEntry.pos, baseEntry.offsets[0]) } : { lemma: adjective, via: synset });
      return;
    }
  };
  pair(word, `a${word}`);
  if (word.startsWith('a') && word.length >= 5) pair(word.slice(1), word);
  return out;
}
