import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AudioError } from './audio-error.js';
import { resolveLocalAudioInput, safeInputArgs } from './local-input.js';
import { containerDuration, ffmpegFailure } from './probe-duration.js';
import { runCommand } from './run-command.js';
import { readWavInfo } from './wav-file.js';

/** Sample rate of every decoded file, in Hz: what the speech engines expect. */
export const PCM_SAMPLE_RATE = 16_000;

export interface DecodeOptions {
  /** Longest accepted recording, in seconds. Default: 21600 (6 hours). */
  maxSeconds?: number;
  /** Limit for probing and decoding together, in milliseconds. Default: 900000 (15 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** ffmpeg executable. Default: `ffmpeg` on the PATH. */
  ffmpegPath?: string;
  /** ffprobe executable. Default: `ffprobe` on the PATH. */
  ffprobePath?: string;
}

/**
 * Decodes a downloaded audio file to 16 kHz mono 16-bit PCM WAV.
 *
 * ffmpeg only ever reads `inputFile` itself: the path must be absolute and
 * name a regular file, its container is recognised here and handed to ffmpeg
 * as a fixed demuxer (so a playlist or concat script is never interpreted),
 * and only the `file` and `pipe` protocols are allowed. Decoding stops after
 * `maxSeconds` + 1 s of audio whatever the header claims, and the whole run
 * is bounded by `timeoutMs`. The output appears only when complete.
 *
 * @returns the decoded length in seconds, measured from the samples written.
 * @throws AudioError `not_audio` (empty, HTML, playlist, no audio stream),
 *   `too_long` (over `maxSeconds`), `damaged` (under half of the stated
 *   length decodes, with decode errors), `decode_failed` (ffmpeg error or timeout).
 * @example
 * const { durationSeconds } = await decodeToPcm('/data/dl/ep.mp3', '/data/work/ep.wav', { maxSeconds: 4 * 3600 });
 */
export async function decodeToPcm(
  inputFile: string,
  outputWav: string,
  opts: DecodeOptions = {},
): Promise<{ durationSeconds: number }> {
  const maxSeconds = opts.maxSeconds ?? 21_600;
  const deadline = Date.now() + (opts.timeoutMs ?? 900_000);
  const remaining = (): number => Math.max(1, deadline - Date.now());

  const input = await resolveLocalAudioInput(inputFile);
  const output = resolve(outputWav);
  if (output === input.path) throw new Error('decodeToPcm: output would overwrite the input');

  const stated = await containerDuration(input, {
    timeoutMs: Math.min(30_000, remaining()),
    signal: opts.signal,
    ffprobePath: opts.ffprobePath,
  });
  // Headers of VBR MP3s without a Xing frame are estimates, so only a clear
  // excess is refused before decoding; the decoded length decides the rest.
  if (stated !== null && stated > maxSeconds * 1.1) {
    throw new AudioError('too_long', `the recording is ${Math.round(stated)} s long; the limit is ${maxSeconds} s`, {
      seconds: stated,
      maxSeconds,
    });
  }

  const partial = `${output}.${randomUUID()}.part`;
  try {
    const args = [
      '-nostdin',
      '-hide_banner',
      '-nostats',
      '-loglevel',
      'error',
      ...safeInputArgs(input),
      '-map',
      '0:a:0',
      '-vn',
      '-sn',
      '-dn',
      '-ac',
      '1',
      '-ar',
      String(PCM_SAMPLE_RATE),
      '-c:a',
      'pcm_s16le',
      '-t',
      String(maxSeconds + 1),
      '-map_metadata',
      '-1',
      '-bitexact',
      '-f',
      'wav',
      '-y',
      partial,
    ];
    const run = await runCommand(opts.ffmpegPath ?? 'ffmpeg', args, {
      timeoutMs: remaining(),
      signal: opts.signal,
      maxStdoutBytes: 64 * 1024,
    });
    if (run.timedOut || run.aborted || run.exitCode !== 0) {
      throw ffmpegFailure('ffmpeg', run.stderrTail, run.timedOut, run.aborted);
    }
    const { durationSeconds } = await readWavInfo(partial);
    if (durationSeconds === 0) throw new AudioError('not_audio', 'the file decoded to no audio');
    // Audio that stops early while ffmpeg reports frames it could not decode is a damaged file:
    // transcribing its first seconds would sell an empty transcript. A VBR header's estimate alone
    // (no decode errors) is not evidence.
    if (stated !== null && durationSeconds < stated / 2 && run.stderrTail.trim() !== '') {
      throw new AudioError('damaged', `only ${durationSeconds.toFixed(1)} s of the ${Math.round(stated)} s the file states could be decoded; the rest is damaged`, {
        seconds: durationSeconds,
        statedSeconds: stated,
      });
    }
    if (durationSeconds > maxSeconds) {
      throw new AudioError('too_long', `the recording is longer than the limit of ${maxSeconds} s`, { maxSeconds });
    }
    await rename(partial, output);
    return { durationSeconds };
  } finally {
    await rm(partial, { force: true });
  }
}
