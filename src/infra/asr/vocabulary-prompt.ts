/** Whisper reads at most 224 prompt tokens; about 4 characters a token, with room to spare. */
const MAX_PROMPT_CHARS = 600;

/**
 * The show's vocabulary as a whisper prompt: whisper continues the style and
 * spellings of the text it is prompted with, so a list of the names makes it
 * spell them as the show does. Names first as given, cut at whole names to
 * stay within whisper's prompt length; null when there is nothing to say.
 *
 * @example vocabularyPrompt(['Siobhan Kearney', 'The Commute']) // 'Siobhan Kearney, The Commute.'
 */
export function vocabularyPrompt(vocabulary: readonly string[] | undefined): string | null {
  const names: string[] = [];
  let length = 0;
  for (const raw of vocabulary ?? []) {
    const name = raw.replace(/\s+/g, ' ').trim();
    if (!name || names.includes(name)) continue;
    if (length + name.length + 2 > MAX_PROMPT_CHARS) break;
    names.push(name);
    length += name.length + 2;
  }
  return names.length ? `${names.join(', ')}.` : null;
}
