/**
 * The trigrams of a search key, the way pg_trgm takes them: each word padded
 * with two spaces in front and one behind ("  the", "the "), every run of
 * three characters. The compact form (words glued together) adds the
 * trigrams that cross word boundaries, so "dhunplugged" and "dh unplugged"
 * share almost all of theirs. Returned once each.
 *
 * @param name a `searchKey(...).name`: lower case, single spaces.
 * @example trigramsOf('dh unplugged') // ['  d', ' dh', 'dh ', '  u', …, 'dhu', 'hun']
 */
export function trigramsOf(name: string): string[] {
  const out = new Set<string>();
  const add = (word: string) => {
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  };
  const words = name.split(' ').filter(Boolean);
  for (const word of words) add(word);
  if (words.length > 1) add(words.join(''));
  return [...out];
}
