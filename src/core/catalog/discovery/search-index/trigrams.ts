/**
 * The trigrams of a search key, much as pg_trgm takes them: each word padded
 * with a space either side (" the "), every run of three characters. pg_trgm
 * pads with two spaces in front; the extra trigram ("  t") only says which
 * letter a word starts with, is shared by a large part of all titles, and
 * dropping it made searches a quarter faster at 1M shows with the same
 * ranking quality (BENCHMARKS.md). The compact form (words glued together) adds the
 * trigrams that cross word boundaries, so "dhunplugged" and "dh unplugged"
 * share almost all of theirs. Returned once each.
 *
 * @param name a `searchKey(...).name`: lower case, single spaces.
 * @example trigramsOf('dh unplugged') // [' dh', 'dh ', ' un', …, 'dhu', 'hun']
 */
export function trigramsOf(name: string): string[] {
  const out = new Set<string>();
  const add = (word: string) => {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  };
  const words = name.split(' ').filter(Boolean);
  for (const word of words) add(word);
  if (words.length > 1) add(words.join(''));
  return [...out];
}
