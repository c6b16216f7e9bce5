/** A word of the transcript text with its character span. */
export interface TextToken {
  /** Lowercase, accents and apostrophes removed, possessive 's dropped. */
  norm: string;
  start: number;
  end: number;
}

// Letters and digits, with inner apostrophes kept so "marianne's" and "don't" stay one word,
// and combining marks kept inside a word: decomposed text (NFD, as macOS pastes it)
// writes "ü" as "u" + U+0308, which must not split "Müller" in two.
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:['’][\p{L}\p{M}]+)*/gu;

/** Normalises one word the same way transcript tokens are normalised. */
export function normalizeWord(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]s$/, '')
    .replace(/['’]/g, '');
}

/**
 * Splits text into word tokens with their character spans.
 *
 * @param offset Added to every span, so tokens of one segment carry positions in the whole text. Default: 0.
 */
export function tokenize(text: string, offset = 0): TextToken[] {
  const out: TextToken[] = [];
  for (const m of text.matchAll(WORD)) {
    const norm = normalizeWord(m[0]);
    if (!norm) continue;
    const start = offset + (m.index ?? 0);
    out.push({ norm, start, end: start + m[0].length });
  }
  return out;
}
