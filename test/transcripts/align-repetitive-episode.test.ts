import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alignAudio } from '../../src/core/transcripts/alignment/align-audio.js';
import { mapTime } from '../../src/core/transcripts/alignment/time-map.js';
import { type AudioFingerprint, fingerprintAudio } from '../../src/infra/audio/fingerprint.js';
import { LONG_AD_TEXT, type Pcm, REPETITIVE_EPISODE, encodeMp3, jingle, secondsOf, splice, spokenPcm } from '../audio/spliced-episode.js';

// An episode that keeps repeating itself matches itself a sentence or two
// away, sometimes better than at the true offset: the ad must still be found
// where it is, and no speech beside it taken for cut.

let dir: string;
let episode: Pcm;
let reference: AudioFingerprint;

async function print(pcm: Pcm): Promise<AudioFingerprint> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.mp3`);
  await writeFile(file, await encodeMp3(pcm));
  return fingerprintAudio(file, `${file}.wav`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'podtext-align-repeats-'));
  episode = await spokenPcm(REPETITIVE_EPISODE);
  reference = await print(episode);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** An ad cut in at `at` s (mid-sentence, as a host's fixed break would) is found there, at its length, and every moment of the episode follows it. */
async function expectAdFound(ad: Pcm, at: number) {
  const spliced = splice(episode, { mid: [{ at, ad }] });
  const result = alignAudio(reference, await print(spliced.pcm));
  expect(result.kind).toBe('mapped');
  if (result.kind !== 'mapped') return;
  expect(result.map.inserted).toHaveLength(1);
  expect(Math.abs(result.map.inserted[0]!.start - at)).toBeLessThan(0.1);
  expect(Math.abs(result.map.inserted[0]!.end - result.map.inserted[0]!.start - secondsOf(ad))).toBeLessThan(0.1);
  expect(result.map.removed).toEqual([]);
  // Every quarter second of the episode, except the instant of the cut itself.
  for (let t = 0.25; t < secondsOf(episode) - 0.25; t += 0.25) {
    if (Math.abs(t - at) < 0.05) continue;
    const m = mapTime(result.map, t);
    expect(m.removed, `t=${t} marked removed`).toBe(false);
    expect(Math.abs(m.t - spliced.now(t)), `t=${t}: got ${m.t}, heard at ${spliced.now(t)}`).toBeLessThan(0.1);
  }
}

describe('aligning an episode that repeats itself', () => {
  it('finds an 11 s spoken ad at 40 s at its length, not 17 s with the next 6 s of speech taken for cut', async () => {
    await expectAdFound(await spokenPcm(LONG_AD_TEXT, 'slt'), 40);
  });

  it('keeps the 30 s before an 11 s jingle, though the stretch after the jingle is matched from inside it', async () => {
    await expectAdFound(jingle(10.9), 30);
  });
});
