// `npm run bench -- align`: what keeping transcript times on re-spliced audio costs, and how exact it is.
// Cost: CPU seconds (this process and its ffmpeg/fpcalc children) per audio hour for fingerprinting
// and for aligning, peak memory, against transcribing a minute of the same audio with sphinx
// (the baseline, measured in the same run). Accuracy: on generated episodes with ads spliced in
// (pre-roll; a mid-roll; three mid-rolls and a post-roll re-encoded at 128 kbit/s, 44.1 kHz,
// stereo; the ads removed again), the error of every probe point inside speech (every 0.25 s)
// between where the map puts it and where it is heard. BENCH_ALIGN_MINUTES sets the episode's
// length (default 10).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { alignAudio } from '../src/core/transcripts/alignment/align-audio.js';
import { mapTime } from '../src/core/transcripts/alignment/time-map.js';
import { createAsrEngine } from '../src/infra/asr/create-asr-engine.js';
import { type AudioFingerprint, fingerprintAudio } from '../src/infra/audio/fingerprint.js';
import { LONG_PASSAGE } from '../test/audio/passages.js';
import { type AdPlan, type EncodeOptions, type Pcm, encodeMp3, secondsOf, silence, splice, spokenPcm } from '../test/audio/spliced-episode.js';

const run = promisify(execFile);
const TICKS = 100;

/** CPU seconds of this process plus its reaped children (ffmpeg, fpcalc, sphinx). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // cutime and cstime: fields 16 and 17 of stat, 14 and 15 after the command name.
  const children = (Number(fields[13]) + Number(fields[14])) / TICKS;
  return (own.user + own.system) / 1e6 + children;
}

async function measure<T>(fn: () => Promise<T> | T): Promise<{ value: T; cpu: number; wall: number }> {
  const c0 = cpuSeconds();
  const w0 = performance.now();
  const value = await fn();
  return { value, cpu: cpuSeconds() - c0, wall: (performance.now() - w0) / 1000 };
}

/** Peak resident memory of a child run, in MB (GNU time). */
async function peakMb(command: string, args: string[]): Promise<number> {
  const { stderr } = await run('/usr/bin/time', ['-f', 'PEAK %M', command, ...args], { maxBuffer: 256 * 1024 * 1024 }).catch((e: { stderr: string }) => e);
  return Number(/PEAK (\d+)/.exec(stderr)?.[1] ?? NaN) / 1024;
}

const WORDS = LONG_PASSAGE.split(/(?<=\.)\s+/);

/** A long episode: the passages' sentences reshuffled per paragraph, read by flite, with pauses between paragraphs (where the ads go). */
async function longEpisode(minutes: number): Promise<{ pcm: Pcm; breaks: number[]; speech: [number, number][] }> {
  const parts: Pcm[] = [];
  const breaks: number[] = [];
  const speech: [number, number][] = [];
  let at = 0;
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  while (at < minutes * 60) {
    const sentences = Array.from({ length: 4 }, () => WORDS[Math.floor(next() * WORDS.length)]!);
    const pcm = await spokenPcm(`${sentences.join(' ')} Paragraph ${parts.length / 2 + 1} ends here.`);
    speech.push([at + 0.3, at + secondsOf(pcm) - 0.3]);
    parts.push(pcm, silence(0.6));
    at += secondsOf(pcm) + 0.6;
    breaks.push(at - 0.3);
  }
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return { pcm: out, breaks: breaks.slice(0, -1), speech };
}

export async function runAlignBench(): Promise<string[]> {
  const minutes = Number(process.env.BENCH_ALIGN_MINUTES ?? 10);
  const dir = await mkdtemp(join(tmpdir(), 'podtext-bench-align-'));
  try {
    const episode = await longEpisode(minutes);
    const hours = secondsOf(episode.pcm) / 3600;
    const ads = { long: await spokenPcm('This episode is brought to you by Sunny Shoes. Comfortable shoes for every season, delivered to your door.', 'slt'), medium: await spokenPcm('Fresh coffee beans, roasted this week. Try them today.', 'awb'), short: await spokenPcm('Sponsored by the corner bakery.', 'kal16') };
    const file = async (pcm: Pcm, opts?: EncodeOptions) => {
      const path = join(dir, `${Math.random().toString(36).slice(2)}.mp3`);
      await writeFile(path, await encodeMp3(pcm, opts));
      return path;
    };
    const print = (path: string) => fingerprintAudio(path, `${path}.wav`);

    // Baseline: sphinx on the first minute of the same audio.
    const minute = await file(episode.pcm.subarray(0, 60 * 16_000));
    const minuteWav = join(dir, 'minute.wav');
    await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', minute, '-ac', '1', '-ar', '16000', minuteWav]);
    const sphinx = createAsrEngine('sphinx', {});
    const asr = await measure(() => sphinx.transcribe(minuteWav, { language: 'en' }));
    const asrPerHour = asr.cpu * 60;

    const originalPath = await file(episode.pcm);
    const ref = await measure(() => print(originalPath));
    const b = episode.breaks;
    const pick = (f: number) => b[Math.min(b.length - 1, Math.floor(b.length * f))]!;
    const scenarios: { name: string; plan: AdPlan; encode?: EncodeOptions }[] = [
      { name: 'pre-roll 7 s', plan: { pre: ads.long } },
      { name: 'mid-roll', plan: { mid: [{ at: pick(0.4), ad: ads.medium }] } },
      { name: '3 mid-rolls + post-roll, 128k 44.1 kHz stereo', plan: { pre: ads.short, mid: [{ at: pick(0.2), ad: ads.medium }, { at: pick(0.5), ad: ads.long }, { at: pick(0.8), ad: ads.short }], post: ads.long }, encode: { bitrate: '128k', rate: 44_100, channels: 2 } },
      { name: 'ads removed again', plan: {} },
    ];
    const lines: string[] = [];
    const errors: number[] = [];
    let fpCpu = ref.cpu;
    let fpHours = hours;
    let alignCpu = 0;
    let peakHeap = 0;
    for (const s of scenarios) {
      const spliced = splice(episode.pcm, s.plan);
      const path = await file(spliced.pcm, s.encode);
      const cur = await measure(() => print(path));
      fpCpu += cur.cpu;
      fpHours += secondsOf(spliced.pcm) / 3600;
      const heap0 = process.memoryUsage().heapUsed;
      const aligned = await measure(() => alignAudio(ref.value as AudioFingerprint, cur.value));
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed - heap0);
      alignCpu += aligned.cpu;
      const result = aligned.value;
      if (result.kind !== 'mapped') {
        lines.push(`| ${s.name} | ${result.kind}: ${result.reason} | | | |`);
        continue;
      }
      const own: number[] = [];
      for (const [from, to] of episode.speech) {
        for (let t = from; t <= to; t += 0.25) own.push(Math.abs(mapTime(result.map, t).t - spliced.now(t)));
      }
      errors.push(...own);
      own.sort((x, y) => x - y);
      lines.push(`| ${s.name} | ${result.map.inserted.length} inserted, ${result.map.removed.length} removed | ${own[Math.floor(own.length / 2)]!.toFixed(3)} | ${own[own.length - 1]!.toFixed(3)} | ${aligned.cpu.toFixed(2)} |`);
    }
    errors.sort((x, y) => x - y);
    const wav = join(dir, 'peak.wav');
    const decodeMb = await peakMb('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', originalPath, '-ac', '1', '-ar', '11025', wav]);
    const fpcalcMb = await peakMb('fpcalc', ['-raw', '-json', '-length', '0', wav]);
    const fpPerHour = fpCpu / fpHours;
    const alignPerHour = alignCpu / scenarios.length / hours;
    return [
      '## Alignment of re-spliced audio: cost and accuracy',
      '',
      `Episode: ${(hours * 60).toFixed(1)} min of flite speech, ${episode.breaks.length + 1} paragraphs; probe points every 0.25 s of speech (${errors.length} in all).`,
      '',
      '| scenario | map | median error (s) | worst error (s) | align CPU (s) |',
      '|---|---|---|---|---|',
      ...lines,
      '',
      `All scenarios: median error ${errors[Math.floor(errors.length / 2)]?.toFixed(3)} s, worst ${errors[errors.length - 1]?.toFixed(3)} s.`,
      '',
      '| per audio hour | CPU seconds | share of transcribing |',
      '|---|---|---|',
      `| transcribing (sphinx, baseline) | ${asrPerHour.toFixed(0)} | 100 % |`,
      `| fingerprint (ffmpeg decode + fpcalc + envelope) | ${fpPerHour.toFixed(1)} | ${((fpPerHour / asrPerHour) * 100).toFixed(2)} % |`,
      `| align (fingerprint windows + envelope refinement) | ${alignPerHour.toFixed(2)} | ${((alignPerHour / asrPerHour) * 100).toFixed(2)} % |`,
      '',
      `Memory: ffmpeg decode peak ${decodeMb.toFixed(0)} MB, fpcalc peak ${fpcalcMb.toFixed(0)} MB, alignment heap growth ${(peakHeap / 1e6).toFixed(1)} MB (${(hours * 60).toFixed(0)} min). Stored reference: ${((ref.value.items.length * 4 + ref.value.envelope.length) / hours / 1e6).toFixed(2)} MB per audio hour.`,
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
