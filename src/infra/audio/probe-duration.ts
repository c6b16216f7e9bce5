import { AudioError } from './audio-error.js';
import { resolveLocalAudioInput, safeInputArgs, type LocalAudioInput } from './local-input.js';
import { lastLine, runCommand } from './run-command.js';

export interface ProbeOptions {
  /** Limit for the ffprobe run, in milliseconds. Default: 30000. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** ffprobe executable. Default: `ffprobe` on the PATH. */
  ffprobePath?: string;
}

/**
 * Duration of a local audio file in seconds, as its container reports it
 * (ffprobe). For MP3 without a Xing/VBRI header this is an estimate from the
 * first frames' bitrate; {@link decodeToPcm} measures the decoded length.
 *
 * @throws AudioError `not_audio` when the file is not audio or has no known
 *   duration, `decode_failed` when ffprobe fails or times out.
 * @example
 * const seconds = await probeDuration('/data/audio/ep-1.mp3');
 */
export async function probeDuration(file: string, opts: ProbeOptions = {}): Promise<number> {
  return probeInputDuration(await resolveLocalAudioInput(file), opts);
}

/** {@link probeDuration} for an input that has already been checked. */
export async function probeInputDuration(input: LocalAudioInput, opts: ProbeOptions = {}): Promise<number> {
  const seconds = await containerDuration(input, opts);
  if (seconds === null) throw new AudioError('not_audio', 'the file has no measurable duration');
  return seconds;
}

/** The container's duration in seconds, or null when it does not state one (raw streams). */
export async function containerDuration(input: LocalAudioInput, opts: ProbeOptions = {}): Promise<number | null> {
  const args = [
    '-v',
    'error',
    ...safeInputArgs(input),
    '-show_entries',
    'format=duration',
    '-of',
    'default=noprint_wrappers=1:nokey=1',
  ];
  const run = await runCommand(opts.ffprobePath ?? 'ffprobe', args, {
    timeoutMs: opts.timeoutMs ?? 30_000,
    signal: opts.signal,
    maxStdoutBytes: 64 * 1024,
  });
  if (run.timedOut || run.aborted || run.exitCode !== 0) {
    throw ffmpegFailure('ffprobe', run.stderrTail, run.timedOut, run.aborted);
  }
  const seconds = Number(run.stdout.trim().split('\n')[0]);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

const NOT_AUDIO_PATTERNS = [
  /Invalid data found when processing input/i,
  /matches no streams/i,
  /does not contain any stream/i,
  /could not find codec parameters/i,
  /Failed to read frame size/i,
  /no audio stream/i,
];

/** Turns a failed ffmpeg/ffprobe run into the AudioError its stderr points at. */
export function ffmpegFailure(tool: string, stderr: string, timedOut: boolean, aborted: boolean): AudioError {
  if (timedOut) return new AudioError('decode_failed', `${tool} timed out`);
  if (aborted) return new AudioError('decode_failed', `${tool} was aborted`);
  const detail = lastLine(stderr);
  if (NOT_AUDIO_PATTERNS.some((p) => p.test(stderr))) {
    return new AudioError('not_audio', 'the file contains no decodable audio', { detail });
  }
  return new AudioError('decode_failed', `${tool} failed: ${detail || 'no message'}`, { detail });
}
