/** A show title normalised for fuzzy matching; see {@link searchKey}. */
export interface SearchKey {
  /** Lower case, no accents, no apostrophes, other punctuation as single spaces, trimmed. */
  name: string;
  /** `name` without spaces, so "dhunplugged" meets "DH Unplugged". */
  compact: string;
}

// Apostrophes and look-alikes. Removed outright so "Lenny's" reads "lennys", the
// way people type it; the acute accent and backtick are here because NFKD would
// otherwise turn them into a space plus a combining mark.
const APOSTROPHES = /['\u2018\u2019\u201B\u02B9\u02BC\u0060\u00B4\u2032\uFF07]/g;
const COMBINING_MARKS = /\p{M}+/gu;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;

/**
 * The search form of a title, stored in `shows.search_name` and
 * `shows.search_compact` and applied to queries, so both sides match:
 * lower case; apostrophes removed without a space; accents removed (NFKD,
 * combining marks dropped); every other run of non-letters and non-digits
 * turned into one space; trimmed. `compact` is `name` without spaces. Pure.
 *
 * @example searchKey("Lenny's Podcast: Product | Growth") // { name: 'lennys podcast product growth', compact: 'lennyspodcastproductgrowth' }
 * @example searchKey('Café Crème') // { name: 'cafe creme', compact: 'cafecreme' }
 */
export function searchKey(title: string): SearchKey {
  const name = title
    .toLowerCase()
    .replace(APOSTROPHES, '')
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .replace(NOT_LETTER_OR_DIGIT, ' ')
    .trim();
  return { name, compact: name.replace(/ /g, '') };
}
