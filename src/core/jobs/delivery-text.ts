/** "40 seconds", "about 4 minutes", "about 2 hours": how long, as people say it. */
export function humanDuration(seconds: number): string {
  if (seconds < 60) {
    const s = Math.max(1, Math.round(seconds));
    return `${s} second${s === 1 ? '' : 's'}`;
  }
  if (seconds < 5400) {
    const m = Math.round(seconds / 60);
    return `about ${m} minute${m === 1 ? '' : 's'}`;
  }
  const h = Math.round(seconds / 3600);
  return `about ${h} hours`;
}

export interface DeliveryFacts {
  dryRun: boolean;
  queued: number;
  library: number;
  fast: boolean;
  promiseSeconds: number | null;
  estimatedSeconds: number;
  notify: string;
  webhookUrl: string | null;
  /** URL of the job, when one exists. */
  pollUrl: string | null;
}

/** The `delivery` sentence of a request result: what happens next, and how the client hears of it. */
export function deliveryText(f: DeliveryFacts): string {
  const parts: string[] = [];
  if (f.dryRun) parts.push('Quote only: nothing was charged, unlocked or queued.');
  if (f.library > 0) {
    const one = f.library === 1;
    const verb = f.dryRun ? 'would be unlocked' : one ? 'is unlocked' : 'are unlocked';
    parts.push(`${f.library} episode${one ? ' is' : 's are'} already transcribed and ${verb} at once; read ${one ? 'it' : 'them'} at transcript_url.`);
  }
  if (f.queued === 0) {
    if (f.library === 0) parts.push('Nothing to queue.');
    return parts.join(' ');
  }
  const n = `${f.queued} episode${f.queued === 1 ? '' : 's'}`;
  const when = f.fast && f.promiseSeconds !== null
    ? `on the fast lane, promised within ${Math.ceil(f.promiseSeconds / 60)} minutes of the request (the fast-lane premium is refunded automatically if later)`
    : `on the standard lane, ready in ${humanDuration(f.estimatedSeconds)} by the current estimate`;
  parts.push(`${n} ${f.dryRun ? 'would be' : f.queued === 1 ? 'is' : 'are'} queued for transcription ${when}.`);
  const channels = [`email ${f.notify}`];
  if (f.webhookUrl) channels.push(`POST a signed job.done event to ${f.webhookUrl}`);
  parts.push(`When ${f.queued === 1 ? 'it is' : 'all are'} done we ${f.dryRun ? 'would ' : ''}${channels.join(' and ')}${f.pollUrl ? `; meanwhile poll ${f.pollUrl}` : ''}.`);
  return parts.join(' ');
}
