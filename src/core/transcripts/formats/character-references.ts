// The references caption files use in practice: WebVTT's own (it names these),
// and the ones HTML-minded tools write into SubRip. Numeric ones cover the rest.
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f', quot: '"', apos: "'",
};

/**
 * Decodes character references in caption text (`&amp;`, `&#39;`, `&#x2019;`);
 * an unknown name or an out-of-range number stays as written.
 *
 * @example decodeCharacterReferences('Fish &amp; chips') // 'Fish & chips'
 */
export function decodeCharacterReferences(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}
