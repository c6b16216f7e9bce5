import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readWavInfo, wavHeader } from '../../src/infra/audio/wav-file.js';
import { type FliteVoice, speak } from './speak.js';

const run = promisify(execFile);
const RATE = 16_000;

/** 16 kHz mono samples. */
export type Pcm = Int16Array;

/** Speaks `text` with flite into 16 kHz mono samples (cached by `speak`). */
export async function spokenPcm(text: string, voice: FliteVoice = 'rms'): Promise<Pcm> {
  const dir = await mkdtemp(join(tmpdir(), 'podtext-splice-'));
  try {
    const file = join(dir, 'speech.wav');
    await speak(text, file, { format: 'wav', voice });
    const info = await readWavInfo(file);
    const bytes = await readFile(file);
    const body = bytes.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
    return new Int16Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const silence = (seconds: number): Pcm => new Int16Array(Math.round(seconds * RATE));
export const secondsOf = (pcm: Pcm) => pcm.length / RATE;

function concat(parts: Pcm[]): Pcm {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** An episode spoken sentence by sentence, with the middle of each pause after a sentence noted: where hosts put ads. */
export interface Episode {
  pcm: Pcm;
  /** Seconds of each pause's middle, after sentence 1, 2, … */
  breaks: number[];
}

export async function speakEpisode(sentences: string[], pause = 0.6): Promise<Episode> {
  const parts: Pcm[] = [];
  const breaks: number[] = [];
  let at = 0;
  for (const s of sentences) {
    const pcm = await spokenPcm(s);
    parts.push(pcm, silence(pause));
    at += secondsOf(pcm);
    breaks.push(at + pause / 2);
    at += pause;
  }
  return { pcm: concat(parts), breaks: breaks.slice(0, -1) };
}

/** Ads placed into an episode: pre-roll, post-roll, and mid-rolls at chosen pauses (seconds on the episode's clock). */
export interface AdPlan {
  pre?: Pcm;
  mid?: { at: number; ad: Pcm }[];
  post?: Pcm;
}

export interface SplicedAudio {
  pcm: Pcm;
  /** Where a moment of the original episode is heard in this audio. */
  now(t: number): number;
  /** The inserted stretches, on this audio's clock. */
  ads: { start: number; end: number }[];
}

/** The episode with ads cut in, as a dynamic-ad-insertion host serves it. */
export function splice(episode: Pcm, plan: AdPlan): SplicedAudio {
  const parts: Pcm[] = [];
  const ads: { start: number; end: number }[] = [];
  let clock = 0;
  let from = 0;
  const shifts: { at: number; by: number }[] = [];
  const addAd = (ad: Pcm, refAt: number) => {
    ads.push({ start: clock, end: clock + secondsOf(ad) });
    parts.push(ad);
    clock += secondsOf(ad);
    shifts.push({ at: refAt, by: secondsOf(ad) });
  };
  if (plan.pre) addAd(plan.pre, 0);
  for (const m of [...(plan.mid ?? [])].sort((a, b) => a.at - b.at)) {
    const cut = Math.round(m.at * RATE);
    parts.push(episode.subarray(from, cut));
    clock += (cut - from) / RATE;
    from = cut;
    addAd(m.ad, m.at);
  }
  parts.push(episode.subarray(from));
  clock += (episode.length - from) / RATE;
  if (plan.post) addAd(plan.post, Infinity);
  return {
    pcm: concat(parts),
    ads,
    now: (t) => t + shifts.filter((s) => s.at <= t).reduce((sum, s) => sum + s.by, 0),
  };
}

export interface EncodeOptions {
  /** Default: 64k. */
  bitrate?: string;
  /** Output sample rate. Default: 16000. */
  rate?: number;
  /** Default: 1. */
  channels?: number;
}

/** MP3-encodes samples with ffmpeg, as a host would serve them. */
export async function encodeMp3(pcm: Pcm, opts: EncodeOptions = {}): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'podtext-splice-'));
  try {
    const wav = join(dir, 'in.wav');
    const body = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    await writeFile(wav, Buffer.concat([wavHeader({ sampleRate: RATE, channels: 1, bitsPerSample: 16 }, body.length), body]));
    const out = join(dir, 'out.mp3');
    await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', wav, '-ac', String(opts.channels ?? 1), '-ar', String(opts.rate ?? RATE), '-c:a', 'libmp3lame', '-b:a', opts.bitrate ?? '64k', out]);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Sentences of a short episode: about thirty seconds spoken by `rms`. */
export const EPISODE_SENTENCES = [
  'The weather was warm and the children played in the park until the evening.',
  'My father bought a new car last week and drove it to the city.',
  'The old house at the end of the road has a green door and a small garden.',
  'She reads the news every morning before she goes to work.',
  'The train was late, so we waited at the station for an hour.',
  'We will meet again next month to talk about the plan.',
];

/** Ad copy, read in other voices so that nothing in it repeats the episode. */
export const AD_TEXTS = {
  long: 'This episode is brought to you by Sunny Shoes. Comfortable shoes for every season, delivered to your door.',
  medium: 'Fresh coffee beans, roasted this week. Try them today.',
  short: 'Sponsored by the corner bakery.',
};

const PART_NUMBERS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'twenty one', 'twenty two', 'twenty three', 'twenty four'];

/**
 * An episode that says nearly the same sentence over and over (about 2 min 15 s
 * spoken by `rms` from one text, as flite reads a file): the same words recur
 * every 5.6 s, so the audio matches itself a sentence or two away.
 */
export const REPETITIVE_EPISODE = PART_NUMBERS.map((n) => `This is part ${n} of the episode, and here we talk about the same thing again.`).join(' ');

/** Eleven seconds of ad copy for the repetitive episode. */
export const LONG_AD_TEXT = 'This episode is brought to you by Sunny Shoes. Comfortable shoes for every season, delivered to your door. Visit sunny shoes dot com today, and save ten percent on your first pair.';

/** A music-like jingle: four notes, two a second, with a tremolo; nothing in it sounds like speech. */
export function jingle(seconds: number): Pcm {
  const out = new Int16Array(Math.round(seconds * RATE));
  const notes = [440, 554, 659, 880];
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    out[i] = Math.round(8000 * Math.sin(2 * Math.PI * notes[Math.floor(t * 2) % 4]! * t) * (0.6 + 0.4 * Math.sin(2 * Math.PI * 3 * t)));
  }
  return out;
}
