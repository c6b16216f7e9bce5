import { open } from 'node:fs/promises';
import { readWavInfo } from './wav-file.js';

/** Length of one loudness frame, in seconds. */
const FRAME_SECONDS = 0.05;
/** Frames summed when looking for the quietest moment: 150 ms, about a gap between words. */
const WINDOW_FRAMES = 3;

/** Mean square level of each 50 ms of a 16-bit PCM WAV (first channel), from its start. */
export async function loudnessProfile(wavFile: string): Promise<Float64Array> {
  const info = await readWavInfo(wavFile);
  if (info.bitsPerSample !== 16) return new Float64Array(0);
  const perFrame = Math.max(1, Math.round(info.sampleRate * FRAME_SECONDS));
  const samples = Math.floor(info.dataBytes / info.blockAlign);
  const frames = new Float64Array(Math.ceil(samples / perFrame));
  const fh = await open(wavFile, 'r');
  try {
    const block = Buffer.alloc(info.blockAlign * perFrame * 400);
    for (let done = 0; done < samples; ) {
      const { bytesRead } = await fh.read(block, 0, Math.min(block.length, (samples - done) * info.blockAlign), info.dataOffset + done * info.blockAlign);
      const count = Math.floor(bytesRead / info.blockAlign);
      if (count === 0) break;
      for (let k = 0; k < count; k++) {
        const v = block.readInt16LE(k * info.blockAlign);
        frames[Math.floor((done + k) / perFrame)] += (v * v) / perFrame;
      }
      done += count;
    }
  } finally {
    await fh.close();
  }
  return frames;
}

/**
 * The middle of the quietest 150 ms between `from` and `to` seconds (the
 * nearest to `near` among equals), or null when the span is too short.
 * Where speech never pauses outright (music or noise under it), the gaps
 * between words are still its quietest moments.
 */
export function quietestMoment(profile: Float64Array, from: number, to: number, near: number): number | null {
  const first = Math.ceil(from / FRAME_SECONDS);
  const last = Math.min(profile.length, Math.floor(to / FRAME_SECONDS)) - WINDOW_FRAMES;
  let best: number | null = null;
  let bestLevel = Infinity;
  for (let i = first; i <= last; i++) {
    let level = 0;
    for (let k = 0; k < WINDOW_FRAMES; k++) level += profile[i + k];
    const at = (i + WINDOW_FRAMES / 2) * FRAME_SECONDS;
    if (level < bestLevel || (level === bestLevel && best !== null && Math.abs(at - near) < Math.abs(best - near))) {
      best = at;
      bestLevel = level;
    }
  }
  return best;
}
