import { resolveLocalAudioInput, safeInputArgs } from './local-input.js';
import { ffmpegFailure } from './probe-duration.js';
import { runCommand } from './run-command.js';
import { loudnessProfile, quietestMoment } from './loudness-profile.js';
import { readWavInfo, type Chunk } from './wav-file.js';

export type { Chunk } from './wav-file.js';

export interface Silence {
  startSeconds: number;
  endSeconds: number;
}

export interface ChunkPlanOptions {
  /** Chunk length to aim for, in seconds. Default: 30. */
  targetChunkSeconds?: number;
  /** No chunk is ever longer than this, in seconds. Default: 60. */
  maxChunkSeconds?: number;
  /**
   * Where no pause lies within reach: the cut between `from` and `to`
   * seconds, near `near`, or null for a hard cut at the target. Default: none.
   */
  quietest?: (from: number, to: number, near: number) => number | null;
}

export interface SplitOptions extends ChunkPlanOptions {
  /** Shortest quiet stretch that counts as a pause, in seconds. Default: 0.3. */
  minSilenceSeconds?: number;
  /** Level below which audio counts as quiet, in dBFS. Default: -35. */
  noiseDb?: number;
  /** Limit for the silence scan, in milliseconds. Default: 300000. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** ffmpeg executable. Default: `ffmpeg` on the PATH. */
  ffmpegPath?: string;
}

/**
 * Splits a decoded WAV into chunks of about `targetChunkSeconds`, cutting
 * inside the pause (ffmpeg `silencedetect`) nearest each target boundary so
 * that no word is cut in two. Where no pause lies within reach (speech over
 * music or noise) the cut is at the quietest moment within 5 s of the
 * target; no chunk exceeds `maxChunkSeconds`. Chunks cover the recording
 * without gaps or overlap.
 *
 * @example
 * const chunks = await splitAtSilences('/data/work/ep.wav', { targetChunkSeconds: 30 });
 * // [{ index: 0, startSeconds: 0, endSeconds: 29.41 }, { index: 1, startSeconds: 29.41, … }, …]
 */
export async function splitAtSilences(wavFile: string, opts: SplitOptions = {}): Promise<Chunk[]> {
  const input = await resolveLocalAudioInput(wavFile);
  const { durationSeconds } = await readWavInfo(input.path);
  const noiseDb = opts.noiseDb ?? -35;
  const minSilence = opts.minSilenceSeconds ?? 0.3;
  const silences: Silence[] = [];
  let openStart: number | null = null;
  const run = await runCommand(
    opts.ffmpegPath ?? 'ffmpeg',
    [
      '-nostdin',
      '-hide_banner',
      '-nostats',
      '-loglevel',
      'info',
      ...safeInputArgs(input),
      '-af',
      `silencedetect=noise=${noiseDb}dB:duration=${minSilence}`,
      '-f',
      'null',
      '-',
    ],
    {
      timeoutMs: opts.timeoutMs ?? 300_000,
      signal: opts.signal,
      maxStdoutBytes: 64 * 1024,
      onStderrLine: (line) => {
        const start = /silence_start: (-?[\d.]+)/.exec(line);
        if (start) openStart = Math.max(0, Number(start[1]));
        const end = /silence_end: (-?[\d.]+)/.exec(line);
        if (end && openStart !== null) {
          silences.push({ startSeconds: openStart, endSeconds: Number(end[1]) });
          openStart = null;
        }
      },
    },
  );
  if (run.timedOut || run.aborted || run.exitCode !== 0) {
    throw ffmpegFailure('ffmpeg silencedetect', run.stderrTail, run.timedOut, run.aborted);
  }
  // Silence that runs to the end of the file is reported without an end.
  if (openStart !== null) silences.push({ startSeconds: openStart, endSeconds: durationSeconds });
  let hard = false;
  const chunks = planChunks(durationSeconds, silences, { ...opts, quietest: () => ((hard = true), null) });
  if (!hard) return chunks;
  const profile = await loudnessProfile(input.path);
  return planChunks(durationSeconds, silences, { ...opts, quietest: (from, to, near) => quietestMoment(profile, from, to, near) });
}

/**
 * Chooses the cut points for {@link splitAtSilences} from a list of pauses.
 * A recording no longer than 1.5 × target (and not over max) stays whole;
 * otherwise each cut lies between target/2 and max after the previous one,
 * in the pause nearest to target, and leaves at least target/2 for the rest.
 */
export function planChunks(durationSeconds: number, silences: readonly Silence[], opts: ChunkPlanOptions = {}): Chunk[] {
  const max = opts.maxChunkSeconds ?? 60;
  const target = Math.min(opts.targetChunkSeconds ?? 30, max);
  if (!(max > 0) || !(target > 0)) throw new RangeError('chunk lengths must be positive');
  if (!(durationSeconds > 0)) return [];

  const chunks: Chunk[] = [];
  let pos = 0;
  while (durationSeconds - pos > max || durationSeconds - pos > target * 1.5) {
    const lo = pos + target / 2;
    const hi = Math.min(pos + max, durationSeconds - target / 2);
    const desired = pos + target;
    let best: number | null = null;
    for (const s of silences) {
      // Keep the cut a little inside the pause: its edges are where speech fades.
      const pad = Math.min(0.1, (s.endSeconds - s.startSeconds) / 2);
      const from = Math.max(s.startSeconds + pad, lo);
      const to = Math.min(s.endSeconds - pad, hi);
      if (from > to) continue;
      const cut = Math.min(Math.max(desired, from), to);
      if (best === null || Math.abs(cut - desired) < Math.abs(best - desired)) best = cut;
    }
    const hardCut = Math.min(desired, hi);
    const cut = roundMs(best ?? opts.quietest?.(Math.max(lo, hardCut - 5), Math.min(hi, hardCut + 5), hardCut) ?? hardCut);
    chunks.push({ index: chunks.length, startSeconds: pos, endSeconds: cut });
    pos = cut;
  }
  chunks.push({ index: chunks.length, startSeconds: pos, endSeconds: roundMs(durationSeconds) });
  return chunks;
}

function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
