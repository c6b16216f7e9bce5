/** `h:mm:ss` or `m:ss` for a number of seconds. */
export function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor(s / 60) % 60;
  const x = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${x}` : `${m}:${x}`;
}

/** A date as YYYY-MM-DD (UTC). */
export function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** A time as YYYY-MM-DD HH:MM UTC. */
export function stamp(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
