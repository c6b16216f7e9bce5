/** Rounds seconds to whole milliseconds, the precision of every format we read or write. */
export function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

// Hours may have any number of digits (pocketcasts writes `0:00:15.410`);
// minutes and seconds one or two, so `M:SS` from HTML transcripts also fits.
// Without hours, minutes run past 59 (`75:30`, as tools counting minutes write an hour and more).
const CLOCK = /^(?:(\d{1,6}):)?(\d{1,4}):(\d{1,2})(?:[.,](\d{1,9}))?$/;

/**
 * Reads a clock time such as `01:02:03,456`, `0:00:15.410`, `12:34.5`, `1:42`
 * or `75:30` (minutes past an hour when no hours are written).
 * Returns seconds, or null when the text is not a clock time.
 *
 * @example parseClock('00:01:02,500') // 62.5
 */
export function parseClock(text: string): number | null {
  const m = CLOCK.exec(text.trim());
  if (!m) return null;
  const hours = m[1] === undefined ? 0 : Number(m[1]);
  const minutes = Number(m[2]);
  const seconds = Number(m[3]);
  if ((m[1] !== undefined && (minutes > 59 || m[2].length > 2)) || seconds > 59) return null;
  const fraction = m[4] === undefined ? 0 : Number(`0.${m[4]}`);
  return roundMs(hours * 3600 + minutes * 60 + seconds + fraction);
}

/**
 * Formats seconds as `HH:MM:SS` + separator + `mmm` (hours grow past two
 * digits if needed). Negative times are written as zero.
 *
 * @example formatClock(3725.5, ',') // '01:02:05,500'
 */
export function formatClock(seconds: number, separator: ',' | '.'): string {
  // Integer milliseconds so 0.1 + 0.2 style float noise cannot leak into the output.
  const total = Math.max(0, Math.round(seconds * 1000));
  const ms = total % 1000;
  const s = Math.floor(total / 1000) % 60;
  const m = Math.floor(total / 60_000) % 60;
  const h = Math.floor(total / 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(h)}:${two(m)}:${two(s)}${separator}${String(ms).padStart(3, '0')}`;
}
