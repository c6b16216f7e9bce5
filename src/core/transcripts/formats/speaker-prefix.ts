// A label is one to four capitalised words (digits allowed after the first,
// as in "Speaker 1"), a colon, then the spoken text. Requiring capitals and a
// short label keeps ordinary sentences such as "note that: ..." from matching.
const PREFIX = /^(\p{Lu}[\p{L}\p{M}'’.-]*(?: [\p{Lu}\d][\p{L}\p{M}\d'’.-]*){0,3}):\s+(?=\S)/u;
const MAX_LABEL = 40;

/**
 * Splits a leading `Name: ` speaker label off a line of text, the way
 * Buzzsprout and others mark speaker turns in SRT and plain text.
 * Returns null when the line does not start with a label.
 *
 * @example takeSpeakerPrefix('Travis: When you first get') // { speaker: 'Travis', rest: 'When you first get' }
 */
export function takeSpeakerPrefix(line: string): { speaker: string; rest: string } | null {
  const m = PREFIX.exec(line);
  if (!m || m[1].length > MAX_LABEL) return null;
  return { speaker: m[1], rest: line.slice(m[0].length) };
}
