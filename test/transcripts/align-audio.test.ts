import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alignAudio } from '../../src/core/transcripts/alignment/align-audio.js';
import { mapTime } from '../../src/core/transcripts/alignment/time-map.js';
import { type AudioFingerprint, fingerprintAudio } from '../../src/infra/audio/fingerprint.js';
import { AD_TEXTS, EPISODE_SENTENCES, type EncodeOptions, type Episode, type Pcm, encodeMp3, secondsOf, speakEpisode, splice, spokenPcm } from '../audio/spliced-episode.js';

let dir: string;
let episode: Episode;
let reference: AudioFingerprint;
let ads: { long: Pcm; medium: Pcm; short: Pcm };

async function print(pcm: Pcm, opts?: EncodeOptions): Promise<AudioFingerprint> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.mp3`);
  await writeFile(file, await encodeMp3(pcm, opts));
  return fingerprintAudio(file, `${file}.wav`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'podtext-align-'));
  episode = await speakEpisode(EPISODE_SENTENCES);
  ads = { long: await spokenPcm(AD_TEXTS.long, 'slt'), medium: await spokenPcm(AD_TEXTS.medium, 'awb'), short: await spokenPcm(AD_TEXTS.short, 'kal16') };
  reference = await print(episode.pcm);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every sentence's middle moves to where it is heard now. */
function expectFollows(map: Parameters<typeof mapTime>[0], now: (t: number) => number, tolerance = 0.1) {
  // 0.4 s from a break is inside the last or first word of a sentence: the pauses are 0.6 s.
  const probes = [0.5, ...episode.breaks.map((b) => b - 0.4), ...episode.breaks.map((b) => b + 0.4), secondsOf(episode.pcm) - 1];
  for (const t of probes) {
    const m = mapTime(map, t);
    expect(m.removed).toBe(false);
    expect(Math.abs(m.t - now(t)), `t=${t}: got ${m.t}, heard at ${now(t)}`).toBeLessThan(tolerance);
  }
}

describe('aligning re-spliced audio to the transcribed one', () => {
  it('finds a pre-roll, its length to better than 0.1 s', async () => {
    const spliced = splice(episode.pcm, { pre: ads.long });
    const result = alignAudio(reference, await print(spliced.pcm));
    expect(result.kind).toBe('mapped');
    if (result.kind !== 'mapped') return;
    expect(result.map.inserted).toHaveLength(1);
    expect(result.map.inserted[0]!.start).toBe(0);
    expect(Math.abs(result.map.inserted[0]!.end - spliced.ads[0]!.end)).toBeLessThan(0.1);
    expectFollows(result.map, spliced.now);
  });

  it('finds two mid-rolls and a post-roll in audio re-encoded at another bitrate, rate and channel count', async () => {
    const spliced = splice(episode.pcm, { mid: [{ at: episode.breaks[1]!, ad: ads.medium }, { at: episode.breaks[3]!, ad: ads.short }], post: ads.long });
    const result = alignAudio(reference, await print(spliced.pcm, { bitrate: '128k', rate: 44_100, channels: 2 }));
    expect(result.kind).toBe('mapped');
    if (result.kind !== 'mapped') return;
    expect(result.map.inserted).toHaveLength(3);
    result.map.inserted.forEach((s, i) => {
      expect(Math.abs(s.end - s.start - (spliced.ads[i]!.end - spliced.ads[i]!.start))).toBeLessThan(0.1);
    });
    expectFollows(result.map, spliced.now);
  });

  it('keeps the last sentence when an ad comes a few seconds before the end, and after every sentence', async () => {
    // The last stretch (4.5 s) is shorter than the ~2.7 s each fingerprint item hears plus a window:
    // its offset read over the wrong audio marked most of the sentence cut and its end a second ad.
    const last = episode.breaks.at(-1)!;
    for (const plan of [{ mid: [{ at: last, ad: ads.medium }] }, { mid: episode.breaks.map((at, i) => ({ at, ad: [ads.short, ads.medium, ads.long][i % 3]! })) }]) {
      const spliced = splice(episode.pcm, plan);
      const result = alignAudio(reference, await print(spliced.pcm));
      expect(result.kind).toBe('mapped');
      if (result.kind !== 'mapped') return;
      expect(result.map.removed).toEqual([]);
      expect(result.map.inserted).toHaveLength(spliced.ads.length);
      expect(Math.abs(result.map.inserted.at(-1)!.end - spliced.ads.at(-1)!.end)).toBeLessThan(0.1);
      expectFollows(result.map, spliced.now);
      expect(Math.abs(mapTime(result.map, secondsOf(episode.pcm) - 0.3).t - spliced.now(secondsOf(episode.pcm) - 0.3))).toBeLessThan(0.1);
    }
  });

  it('finds the last sentence after an ad when the transcribed audio had another ad cut, either way round', async () => {
    // A 4.5 s end has no 3 s window of fingerprint items wholly its own: unless the loudness places it,
    // the sentence was marked cut and an ad said to run to the end of the file.
    const last = episode.breaks.at(-1)!;
    const length = secondsOf(episode.pcm);
    const withPre = splice(episode.pcm, { pre: ads.long });
    const withLate = splice(episode.pcm, { mid: [{ at: last, ad: ads.medium }] });
    const pre = secondsOf(ads.long);
    const late = secondsOf(ads.medium);
    const fromPre = alignAudio(await print(withPre.pcm), await print(withLate.pcm));
    const fromLate = alignAudio(await print(withLate.pcm), await print(withPre.pcm));
    expect(fromPre.kind).toBe('mapped');
    expect(fromLate.kind).toBe('mapped');
    if (fromPre.kind !== 'mapped' || fromLate.kind !== 'mapped') return;
    expect(fromPre.map.removed).toHaveLength(1);
    expect(fromPre.map.inserted).toHaveLength(1);
    expect(Math.abs(fromPre.map.inserted[0]!.end - withLate.ads[0]!.end)).toBeLessThan(0.1);
    expect(fromLate.map.removed).toHaveLength(1);
    expect(Math.abs(fromLate.map.removed[0]!.at - withPre.now(last))).toBeLessThan(0.1);
    for (const t of [last + 0.5, (last + length) / 2, length - 0.3]) {
      const a = mapTime(fromPre.map, t + pre);
      expect(a.removed, `${t} s`).toBe(false);
      expect(Math.abs(a.t - withLate.now(t)), `${t} s`).toBeLessThan(0.1);
      const b = mapTime(fromLate.map, t + late);
      expect(b.removed, `${t} s`).toBe(false);
      expect(Math.abs(b.t - withPre.now(t)), `${t} s`).toBeLessThan(0.1);
    }
  });

  it('keeps a short opening before an ad the transcribed audio had, once that ad is gone or moved to a pre-roll', async () => {
    // The first 4.8 s sentence, then an ad: read from the items' starts it was marked cut.
    const first = episode.breaks[0]!;
    const withAd = splice(episode.pcm, { mid: [{ at: first, ad: ads.medium }] });
    const reference = await print(withAd.pcm);
    for (const now of [splice(episode.pcm, {}), splice(episode.pcm, { pre: ads.long })]) {
      const result = alignAudio(reference, await print(now.pcm));
      expect(result.kind).toBe('mapped');
      if (result.kind !== 'mapped') return;
      for (const t of [0.5, first / 2, first - 0.5]) {
        const m = mapTime(result.map, t);
        expect(m.removed, `${t} s`).toBe(false);
        expect(Math.abs(m.t - now.now(t)), `${t} s`).toBeLessThan(0.1);
      }
      expect(result.map.removed).toHaveLength(1);
      expect(Math.abs(result.map.removed[0]!.refEnd - result.map.removed[0]!.refStart - secondsOf(ads.medium))).toBeLessThan(0.1);
    }
  });

  it('marks what was cut out when ads the transcribed audio had are gone', async () => {
    const withAds = splice(episode.pcm, { mid: [{ at: episode.breaks[2]!, ad: ads.long }] });
    const result = alignAudio(await print(withAds.pcm), reference);
    expect(result.kind).toBe('mapped');
    if (result.kind !== 'mapped') return;
    expect(result.map.inserted).toEqual([]);
    expect(result.map.removed).toHaveLength(1);
    const ad = withAds.ads[0]!;
    const inside = mapTime(result.map, (ad.start + ad.end) / 2);
    expect(inside.removed).toBe(true);
    expect(Math.abs(inside.t - episode.breaks[2]!)).toBeLessThan(0.1);
    expect(Math.abs(mapTime(result.map, ad.end + 1).t - (ad.end + 1 - (ad.end - ad.start)))).toBeLessThan(0.1);
  });

  it('refuses an unrelated recording', async () => {
    const other = await spokenPcm('Completely different words about mountains, rivers and a long journey across the sea by boat. The captain sang loudly every night.', 'awb');
    const result = alignAudio(reference, await print(other));
    expect(result.kind).toBe('different');
  });
});
