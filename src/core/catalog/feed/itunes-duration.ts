/** Longest duration believed, in seconds (7 days); beyond that it is a typo or junk. */
const MAX_SECONDS = 7 * 24 * 3600;

/**
 * `itunes:duration` in whole seconds. Accepts plain seconds (`3600`,
 * `3600.5`), `M:SS`, `MM:SS`, `H:MM:SS` (minutes may exceed 59 without
 * hours, e.g. `75:30`). Junk — a URL, `1:75`, text — gives null, and so
 * does zero: publishers write `0:00` when they do not know.
 */
export function parseItunesDuration(raw: string | null | undefined): number | null {
  const text = raw?.trim();
  if (!text) return null;
  let seconds: number;
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    seconds = Math.round(Number(text));
  } else {
    const parts = /^(?:(\d+):)?(\d+):(\d{1,2}(?:\.\d+)?)$/.exec(text);
    if (!parts) return null;
    const hours = parts[1] === undefined ? 0 : Number(parts[1]);
    const minutes = Number(parts[2]);
    const secs = Number(parts[3]);
    if (secs >= 60 || (parts[1] !== undefined && minutes >= 60)) return null;
    seconds = Math.round(hours * 3600 + minutes * 60 + secs);
  }
  return seconds > 0 && seconds <= MAX_SECONDS ? seconds : null;
}
