import type { AudioChecks } from '../core/transcripts/alignment/audio-check-service.js';
import { fingerprintToolVersion } from '../infra/audio/fingerprint.js';
import type { EventBus } from '../infra/events/event-bus.js';
import { loopFailures } from '../infra/db/loop-failures.js';
import type { Logger } from '../infra/logger.js';

export interface AudioCheckLoopOptions {
  /** Longest pause between looks for due checks, in ms. Default: a tenth of the check interval, between 1 s and 60 s. */
  pollMs?: number;
  /** Checks claimed per look. Default: 4. */
  batch?: number;
}

/**
 * Runs due audio checks one at a time until `signal` aborts (fingerprinting
 * is cheap, but a transcription slot's CPU matters more). A stored
 * transcript wakes the loop, so a new reference is taken while the audio is
 * still the one just transcribed. On abort, the check in flight is cut short
 * and it and the claimed ones not begun are handed back (due at once, not
 * after the claim's 15 minutes); resolves once that is done.
 */
export async function runAudioChecks(checks: AudioChecks, bus: EventBus, log: Logger, signal: AbortSignal, options: AudioCheckLoopOptions = {}): Promise<void> {
  try {
    await fingerprintToolVersion();
  } catch (err) {
    log.error(`Audio checks not started: ${(err as Error).message}. Transcript times will not follow re-spliced audio until it is installed.`);
    return;
  }
  const pollMs = options.pollMs ?? Math.min(60_000, Math.max(1000, (checks.options.intervalSeconds * 1000) / 10));
  const batch = options.batch ?? 4;
  const failed = loopFailures(log, 'audio check pass failed');
  let wake: (() => void) | null = null;
  let woken = false;
  const unsubscribe = bus.subscribe((e) => {
    if (e.type !== 'transcript.stored') return;
    woken = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    while (!signal.aborted) {
      woken = false;
      let due: string[] = [];
      let done = 0;
      try {
        due = await checks.claimDue(batch);
        for (const id of due) {
          if (signal.aborted) break;
          // A check cut short by the stop wrote nothing: it is handed back with the ones not begun.
          if ((await checks.check(id, signal)) === 'failed' && signal.aborted) break;
          done += 1;
        }
      } catch (err) {
        if (!signal.aborted) failed(err);
      }
      if (signal.aborted && done < due.length) {
        await checks.release(due.slice(done)).catch((err) => log.warn({ err }, 'audio checks not handed back; they are due again when their claim runs out'));
      }
      if (due.length >= batch || woken || signal.aborted) continue;
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, pollMs);
        function done() {
          clearTimeout(t);
          wake = null;
          resolve();
        }
        wake = done;
      });
    }
  } finally {
    unsubscribe();
    signal.removeEventListener('abort', onAbort);
  }
}
