/**
 * Words of a transcript as WER compares them: lower case, accents kept,
 * apostrophes dropped inside words (`don't` = `dont`), every other
 * punctuation mark a word break (`cold-hearted` = `cold hearted`).
 * Numbers are not spelled out: `10` and `ten` differ.
 */
export function normaliseWords(text: string): string[] {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/(\p{L})['’](\p{L})/gu, '$1$2')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter(Boolean);
}

/**
 * Word error rate: (substitutions + deletions + insertions) / words in the
 * reference, by Levenshtein distance over normalised words
 * ({@link normaliseWords}). 0 is perfect; it can exceed 1 when the
 * hypothesis adds many words. An empty reference counts each hypothesis
 * word as one error (so 0 only when both are empty).
 *
 * @example
 * wordErrorRate('He was not an ill-disposed young man.', 'he was not an illness those young man'); // 0.25
 */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = normaliseWords(reference);
  const hyp = normaliseWords(hypothesis);
  return editDistance(ref, hyp) / Math.max(1, ref.length);
}

/** Levenshtein distance between two word sequences, in O(|b|) memory. */
export function editDistance(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}
