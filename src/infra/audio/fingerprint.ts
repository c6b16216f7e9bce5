import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { AudioError } from './audio-error.js';
import { resolveLocalAudioInput, safeInputArgs } from './local-input.js';
import { ffmpegFailure } from './probe-duration.js';
import { runCommand } from './run-command.js';
import { readWavInfo } from './wav-file.js';

/** Chromaprint analyses audio at this rate (Hz); decoding to it once serves both measures. */
const RATE = 11_025;
/** Envelope frames per second: one byte per 10 ms. */
export const ENVELOPE_RATE = 100;
/** Seconds between chromaprint items: a 4096-sample frame every 1365 samples at 11025 Hz. */
export const ITEM_SECONDS = 1365 / RATE;
/**
 * Seconds of audio one item depends on, from its start: a 4096-sample frame
 * and the 19 frames after it (chromaprint's 5-frame chroma filter and its
 * classifiers up to 16 frames wide). A file's last items so end this long
 * before its audio does.
 */
export const ITEM_HEARS_SECONDS = (19 * 1365 + 4096) / RATE;

export interface AudioFingerprint {
  /** Chromaprint raw fingerprint: one 32-bit item per {@link ITEM_SECONDS}. */
  items: Uint32Array;
  /**
   * Loudness every 10 ms, in half-decibels above -90 dBFS (0 = silence,
   * 180 = full scale): coarse enough to survive re-encoding, fine enough to
   * place a splice within a few hundredths of a second.
   */
  envelope: Uint8Array;
  /** Decoded length in seconds. */
  seconds: number;
  /** `fpcalc` version line, kept with the reference: items of another version may not compare. */
  tool: string;
}

export interface FingerprintOptions {
  /** Limit for decoding and fingerprinting together, in ms. Default: 600000 (10 min). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Longest audio read, in seconds. Default: 21600 (6 hours). */
  maxSeconds?: number;
}

let toolVersion: Promise<string> | null = null;

/** fpcalc's version line, asked once per process. */
export function fingerprintToolVersion(): Promise<string> {
  toolVersion ??= runCommand('fpcalc', ['-version'], { timeoutMs: 10_000 })
    .then((r) => r.stdout.trim().split('\n')[0] || 'fpcalc (unknown version)')
    .catch((err: NodeJS.ErrnoException) => {
      toolVersion = null;
      throw new AudioError('decode_failed', err.code === 'ENOENT' ? 'fpcalc is not installed (Debian: libchromaprint-tools)' : `fpcalc did not start: ${err.message}`);
    });
  return toolVersion;
}

/**
 * Fingerprints a downloaded audio file: ffmpeg decodes it once (the local
 * file only, fixed demuxer) to 11025 Hz mono, which fpcalc fingerprints
 * (`-raw -json -length 0`: the whole file) and which is read again for the
 * loudness envelope. `scratchWav` is removed afterwards.
 * @throws AudioError when the file is not audio or a tool fails.
 */
export async function fingerprintAudio(file: string, scratchWav: string, opts: FingerprintOptions = {}): Promise<AudioFingerprint> {
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  const remaining = () => Math.max(1, deadline - Date.now());
  const tool = await fingerprintToolVersion();
  const input = await resolveLocalAudioInput(file);
  try {
    const decode = await runCommand(
      'ffmpeg',
      ['-nostdin', '-hide_banner', '-nostats', '-loglevel', 'error', ...safeInputArgs(input), '-map', '0:a:0', '-vn', '-ac', '1', '-ar', String(RATE),
        '-c:a', 'pcm_s16le', '-t', String(opts.maxSeconds ?? 21_600), '-map_metadata', '-1', '-bitexact', '-f', 'wav', '-y', scratchWav],
      { timeoutMs: remaining(), signal: opts.signal, maxStdoutBytes: 64 * 1024 },
    );
    if (decode.timedOut || decode.aborted || decode.exitCode !== 0) throw ffmpegFailure('ffmpeg', decode.stderrTail, decode.timedOut, decode.aborted);
    const info = await readWavInfo(scratchWav);
    if (info.durationSeconds === 0) throw new AudioError('not_audio', 'the file decoded to no audio');
    const fp = await runCommand('fpcalc', ['-raw', '-json', '-length', '0', scratchWav], { timeoutMs: remaining(), signal: opts.signal, maxStdoutBytes: 64 * 1024 * 1024 });
    if (fp.timedOut || fp.aborted) throw new AudioError('decode_failed', fp.timedOut ? 'fpcalc timed out' : 'fingerprinting was aborted');
    // fpcalc may exit non-zero after printing a valid fingerprint (a decoding
    // complaint at the end of the file): the JSON decides.
    const items = parseFpcalcJson(fp.stdout);
    if (!items) throw new AudioError('decode_failed', `fpcalc gave no fingerprint: ${fp.stderrTail.trim().slice(-300) || `exit ${fp.exitCode}`}`);
    const envelope = await loudnessEnvelope(scratchWav, info.dataOffset, info.dataBytes);
    return { items, envelope, seconds: info.durationSeconds, tool };
  } finally {
    await rm(scratchWav, { force: true });
  }
}

/** The `fingerprint` array of fpcalc's JSON as unsigned 32-bit items, or null when absent. */
export function parseFpcalcJson(stdout: string): Uint32Array | null {
  const start = stdout.indexOf('{');
  if (start < 0) return null;
  try {
    const parsed = JSON.parse(stdout.slice(start)) as { fingerprint?: unknown };
    if (!Array.isArray(parsed.fingerprint) || parsed.fingerprint.length === 0) return null;
    return Uint32Array.from(parsed.fingerprint as number[], (n) => n >>> 0);
  } catch {
    return null;
  }
}

/** RMS loudness of 16-bit mono PCM per 10 ms, streamed: an hour needs no more memory than its 360 KB result. */
async function loudnessEnvelope(wav: string, offset: number, bytes: number): Promise<Uint8Array> {
  const samples = Math.floor(bytes / 2);
  const frames = Math.ceil((samples * ENVELOPE_RATE) / RATE);
  const out = new Uint8Array(frames);
  let index = 0;
  let frame = 0;
  let sum = 0;
  let count = 0;
  let frameEnd = Math.round(RATE / ENVELOPE_RATE);
  let carry: number | null = null;
  const flush = () => {
    const rms = Math.sqrt(sum / Math.max(1, count)) / 32768;
    const db = rms > 0 ? 20 * Math.log10(rms) : -90;
    out[frame] = Math.max(0, Math.min(255, Math.round((db + 90) * 2)));
    frame++;
    sum = 0;
    count = 0;
    frameEnd = Math.round(((frame + 1) * RATE) / ENVELOPE_RATE);
  };
  if (bytes > 0) {
    for await (const chunk of createReadStream(wav, { start: offset, end: offset + bytes - 1, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
      let pos = 0;
      if (carry !== null) {
        const v = ((chunk[0]! << 8) | carry) << 16 >> 16;
        sum += v * v;
        count++;
        index++;
        if (index >= frameEnd && frame < frames) flush();
        carry = null;
        pos = 1;
      }
      for (; pos + 1 < chunk.length; pos += 2) {
        const v = chunk.readInt16LE(pos);
        sum += v * v;
        count++;
        index++;
        if (index >= frameEnd && frame < frames) flush();
      }
      if (pos < chunk.length) carry = chunk[pos]!;
    }
  }
  if (count > 0 && frame < frames) flush();
  return frame < frames ? out.subarray(0, frame) : out;
}
