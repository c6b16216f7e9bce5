import { open } from 'node:fs/promises';
import { AsrError } from './asr-engine.js';

/**
 * Frequency-warp factors for sphinx's `-warp_params` (warp type
 * `inverse_linear`, which divides frequencies by the factor), chosen from the
 * speaker's pitch. The en-us acoustic model was trained mostly on men; a
 * higher voice has its formants higher too, and scaling them down towards
 * the model's speakers is vocal-tract-length normalisation. Measured on a
 * minute of flite's female `slt` voice: WER 16.1 % unwarped, 12.4 % at 1.1,
 * 11.4 % at 1.2, 10.4 % at 1.3, 9.3 % at 1.4; lower factors made it worse (22.8 % at 0.8).
 * On the three-sentence SHORT_PASSAGE the same voice went from 7.7 % to
 * 12.8 % at 1.1–1.3 and 20.5 % at 1.4, so the factor stops at 1.3. Those two
 * passages are the tuning set; the evaluation set's passages are held out.
 */
export interface WarpChoice {
  /** Median pitch of the voiced frames, Hz; null when too little was voiced to tell. */
  pitchHz: number | null;
  /** 1 means no warping. */
  warp: number;
}

/** Pitch at and below which no warping is done (men's voices, and the model's). */
const LOW_PITCH_HZ = 135;
/** Pitch at and above which the largest warp is used. */
const HIGH_PITCH_HZ = 170;
const MAX_WARP = 1.3;
const SAMPLE_RATE = 16_000;
const FRAME = 640; // 40 ms
const HOP = 1600; // every 100 ms: enough frames for a median, a small share of the decoding cost
const MIN_LAG = Math.floor(SAMPLE_RATE / 400);
const MAX_LAG = Math.ceil(SAMPLE_RATE / 70);
/** Normalised autocorrelation a frame needs to count as voiced. */
const VOICED = 0.6;
/** Most audio read: a minute of frames tells the pitch as well as an hour. */
const MAX_SECONDS = 120;

/** The warp factor for a median pitch: none up to 135 Hz, rising linearly to 1.3 at 170 Hz (flite's `slt` is at 170 Hz, `rms` 101, `awb` 125; the LibriVox reader 80–112). */
export function warpForPitch(pitchHz: number | null): number {
  if (pitchHz === null || pitchHz <= LOW_PITCH_HZ) return 1;
  const share = Math.min(1, (pitchHz - LOW_PITCH_HZ) / (HIGH_PITCH_HZ - LOW_PITCH_HZ));
  return Math.round((1 + share * (MAX_WARP - 1)) * 100) / 100;
}

/** Frames measured between looks at the abort signal: 5 s of audio, a few ms of CPU. */
const FRAMES_PER_SLICE = 50;

/** The pitch of one 40 ms frame at `start`, Hz; null when it is quiet or not clearly periodic. */
function framePitch(samples: Int16Array, start: number, meanEnergy: number): number | null {
  let e0 = 0;
  for (let i = 0; i < FRAME; i++) e0 += samples[start + i] * samples[start + i];
  // Quiet frames are pauses or breath: below half the mean energy per sample.
  if (e0 / FRAME < 0.5 * meanEnergy || e0 === 0) return null;
  let bestLag = 0;
  let best = 0;
  for (let lag = MIN_LAG; lag <= MAX_LAG; lag++) {
    let c = 0;
    let e1 = 0;
    for (let i = 0; i < FRAME; i++) {
      const b = samples[start + i + lag];
      c += samples[start + i] * b;
      e1 += b * b;
    }
    const r = c / Math.sqrt(e0 * e1 || 1);
    if (r > best) {
      best = r;
      bestLag = lag;
    }
  }
  return best >= VOICED ? SAMPLE_RATE / bestLag : null;
}

/**
 * Median pitch of 16 kHz mono 16-bit samples by autocorrelation over
 * 40 ms frames every 100 ms; frames that are quiet or not clearly periodic
 * are skipped. Works in slices of 5 s of audio, giving the event loop its
 * turn between them, and stops with an `aborted` AsrError when `signal`
 * fires: a worker stopping mid-chunk does not wait for it.
 */
export async function medianPitch(samples: Int16Array, signal?: AbortSignal): Promise<number | null> {
  let energySum = 0;
  for (let i = 0; i < samples.length; i += 4) energySum += samples[i] * samples[i];
  const meanEnergy = energySum / Math.max(1, samples.length / 4);
  const pitches: number[] = [];
  let frames = 0;
  for (let start = 0; start + FRAME + MAX_LAG <= samples.length; start += HOP) {
    if (++frames % FRAMES_PER_SLICE === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      throwIfAborted(signal);
    }
    const pitch = framePitch(samples, start, meanEnergy);
    if (pitch !== null) pitches.push(pitch);
  }
  if (pitches.length < 5) return null;
  pitches.sort((a, b) => a - b);
  return pitches[Math.floor(pitches.length / 2)];
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AsrError('aborted', 'transcription aborted');
}

/**
 * Reads up to two minutes of a 16 kHz mono 16-bit PCM WAV (its data chunk
 * found by walking the RIFF chunks) and chooses the warp for its speaker.
 * Aborting `signal` stops it with an `aborted` AsrError.
 */
export async function chooseWarp(wavFile: string, signal?: AbortSignal): Promise<WarpChoice> {
  throwIfAborted(signal);
  const fh = await open(wavFile, 'r');
  try {
    const header = Buffer.alloc(12);
    await fh.read(header, 0, 12, 0);
    let at = 12;
    const chunk = Buffer.alloc(8);
    for (;;) {
      const { bytesRead } = await fh.read(chunk, 0, 8, at);
      if (bytesRead < 8) return { pitchHz: null, warp: 1 };
      const id = chunk.toString('ascii', 0, 4);
      const size = chunk.readUInt32LE(4);
      if (id === 'data') {
        const bytes = Math.min(size, MAX_SECONDS * SAMPLE_RATE * 2) & ~1;
        const data = Buffer.alloc(bytes);
        const read = (await fh.read(data, 0, bytes, at + 8)).bytesRead & ~1;
        throwIfAborted(signal);
        const samples = new Int16Array(data.buffer, data.byteOffset, read / 2);
        const pitchHz = await medianPitch(samples, signal);
        return { pitchHz, warp: warpForPitch(pitchHz) };
      }
      at += 8 + size + (size % 2);
    }
  } finally {
    await fh.close();
  }
}
