import type { TopicMention } from './searchable-transcript.js';

/** Formats seconds as mm:ss, or h:mm:ss from one hour on. */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (x: number): string => String(x).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

function listJoin(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const MAX_SUMMARY_QUOTE = 160;

function shorten(quote: string): string {
  if (quote.length <= MAX_SUMMARY_QUOTE) return quote;
  const cut = quote.lastIndexOf(' ', MAX_SUMMARY_QUOTE);
  return `${quote.slice(0, cut > 40 ? cut : MAX_SUMMARY_QUOTE)}…`;
}

/**
 * An extractive summary: how many mentions, where, and the strongest quote.
 *
 * @param mentions In time order.
 * @param strongest Index into `mentions` of the best-ranked one.
 * @param matched Words that matched when they differ from the topic's own words (relatives, respellings).
 */
export function summarizeMentions(topic: string, mentions: TopicMention[], strongest: number, matched: string[] = []): string {
  const shownTopic = topic.trim();
  if (mentions.length === 0) {
    return `No mention of "${shownTopic}" was found in this transcript: neither the words, their other forms, related words nor similar-sounding names occur in it.`;
  }
  const times = mentions.map((m) => (m.timestampSeconds === null ? 'an unknown time' : formatClock(m.timestampSeconds)));
  const count = mentions.length === 1 ? '1 mention' : `${mentions.length} mentions`;
  const best = mentions[strongest] ?? mentions[0];
  const where = best.timestampSeconds === null ? '' : ` (${formatClock(best.timestampSeconds)})`;
  const via = matched.length > 0 ? ` Matched as: ${matched.slice(0, 4).map((w) => `"${w}"`).join(', ')}.` : '';
  return `${count} of "${shownTopic}" at ${listJoin(times)}. Strongest${where}: "${shorten(best.quote)}"${via}`;
}
