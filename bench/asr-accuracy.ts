/**
 * Word error rate and speed of each available speech engine on recorded
 * speech (the LibriVox clips shipped in Debian's pocketsphinx-testdata, with
 * their reference transcripts) and on text spoken by flite.
 *
 *   npx tsx bench/asr-accuracy.ts [--voices rms,slt] [--whisper-model ggml-base.en.bin]
 *     [--whisper-binary whisper-cli] [--openai-url http://gpu:8000] [--openai-model m]
 *     [--openai-key-file key.txt]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { decodeToPcm } from '../src/infra/audio/decode-to-pcm.js';
import { readWavInfo } from '../src/infra/audio/wav-file.js';
import type { AsrEngine } from '../src/infra/asr/asr-engine.js';
import { createAsrEngine } from '../src/infra/asr/create-asr-engine.js';
import { editDistance, normaliseWords } from '../src/infra/asr/word-error-rate.js';
import { LONG_PASSAGE } from '../test/audio/passages.js';
import { speak, type FliteVoice } from '../test/audio/speak.js';

export interface Row {
  engine: string;
  model: string;
  corpus: string;
  clips: number;
  /** Seconds of audio transcribed. */
  audioSeconds: number;
  /** Wall-clock seconds the engine took, model loading included. */
  engineSeconds: number;
  /** Corpus WER: all errors over all reference words (not a mean of clip WERs). */
  wer: number;
  /** Real-time factor: engineSeconds / audioSeconds; below 1 is faster than real time. */
  rtf: number;
}

export interface AsrBenchOptions {
  /** Engines to measure; unavailable ones are skipped. Default: sphinx, whisper-cpp and openai with default options. */
  engines?: AsrEngine[];
  /** Directory holding `fileids`, `transcription` and the WAVs. Default: Debian's pocketsphinx-testdata LibriVox set. */
  librivoxDir?: string;
  /** flite voices for the spoken-text corpus. Default: rms and slt. */
  voices?: FliteVoice[];
  /** Where skipped engines and progress are reported. Default: stderr. */
  log?: (line: string) => void;
}

interface Clip {
  id: string;
  wav: string;
  reference: string;
}

const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';

/** Reads `<s> text </s> (id)` lines, the sphinx test transcription format. */
async function librivoxClips(dir: string, scratch: string): Promise<Clip[]> {
  const ids = (await readFile(join(dir, 'fileids'), 'utf8')).split('\n').map((l) => l.trim()).filter(Boolean);
  const references = new Map<string, string>();
  for (const line of (await readFile(join(dir, 'transcription'), 'utf8')).split('\n')) {
    const m = /^(.*)\(([^)]+)\)\s*$/.exec(line);
    if (m) references.set(m[2], m[1].replace(/<\/?s>/g, '').trim());
  }
  const clips: Clip[] = [];
  for (const id of ids) {
    const wav = join(scratch, `${id}.wav`);
    await decodeToPcm(join(dir, `${id}.wav`), wav);
    clips.push({ id, wav, reference: references.get(id) ?? '' });
  }
  return clips;
}

async function fliteClips(voice: FliteVoice, scratch: string): Promise<Clip[]> {
  const mp3 = join(scratch, `flite-${voice}.mp3`);
  const wav = join(scratch, `flite-${voice}.wav`);
  await speak(LONG_PASSAGE, mp3, { format: 'mp3', voice });
  await decodeToPcm(mp3, wav);
  return [{ id: `flite-${voice}`, wav, reference: LONG_PASSAGE }];
}

async function measure(engine: AsrEngine, corpus: string, clips: Clip[]): Promise<Row> {
  let errors = 0;
  let referenceWords = 0;
  let audioSeconds = 0;
  let engineSeconds = 0;
  for (const clip of clips) {
    const started = performance.now();
    const result = await engine.transcribe(clip.wav, { language: 'en' });
    engineSeconds += (performance.now() - started) / 1000;
    audioSeconds += (await readWavInfo(clip.wav)).durationSeconds;
    const reference = normaliseWords(clip.reference);
    errors += editDistance(reference, normaliseWords(result.text));
    referenceWords += reference.length;
  }
  return {
    engine: engine.name,
    model: engine.model,
    corpus,
    clips: clips.length,
    audioSeconds,
    engineSeconds,
    wer: errors / Math.max(1, referenceWords),
    rtf: engineSeconds / Math.max(audioSeconds, 1e-9),
  };
}

/**
 * Measures every available engine on each corpus, one clip at a time (so
 * the real-time factor is that of one process on an otherwise idle machine).
 */
export async function runAsrBench(opts: AsrBenchOptions = {}): Promise<Row[]> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const engines = opts.engines ?? [
    createAsrEngine('sphinx', {}),
    createAsrEngine('whisper-cpp', {}),
    createAsrEngine('openai', {}),
  ];
  const scratch = await mkdtemp(join(tmpdir(), 'asr-bench-'));
  try {
    const corpora: Array<[string, Clip[]]> = [['librivox', await librivoxClips(opts.librivoxDir ?? LIBRIVOX, scratch)]];
    for (const voice of opts.voices ?? ['rms', 'slt']) corpora.push([`flite-${voice}`, await fliteClips(voice, scratch)]);

    const rows: Row[] = [];
    for (const engine of engines) {
      const { ok, reason } = await engine.available();
      if (!ok) {
        log(`skipped ${engine.name}: ${reason}`);
        continue;
      }
      for (const [corpus, clips] of corpora) {
        log(`${engine.name} on ${corpus}…`);
        rows.push(await measure(engine, corpus, clips));
      }
    }
    return rows;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The rows as an aligned text table. */
export function formatAsrTable(rows: readonly Row[]): string {
  const header = ['engine', 'model', 'corpus', 'clips', 'audio s', 'engine s', 'WER', 'RTF'];
  const lines = rows.map((r) => [
    r.engine,
    r.model,
    r.corpus,
    String(r.clips),
    r.audioSeconds.toFixed(1),
    r.engineSeconds.toFixed(1),
    `${(r.wer * 100).toFixed(1)} %`,
    r.rtf.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  return [header, ...lines].map((cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      voices: { type: 'string' },
      'whisper-binary': { type: 'string' },
      'whisper-model': { type: 'string' },
      'openai-url': { type: 'string' },
      'openai-model': { type: 'string' },
      'openai-key-file': { type: 'string' },
    },
  });
  const apiKey = values['openai-key-file'] ? (await readFile(values['openai-key-file'], 'utf8')).trim() : undefined;
  const rows = await runAsrBench({
    voices: values.voices ? (values.voices.split(',') as FliteVoice[]) : undefined,
    engines: [
      createAsrEngine('sphinx', {}),
      createAsrEngine('whisper-cpp', { binaryPath: values['whisper-binary'], modelPath: values['whisper-model'] }),
      createAsrEngine('openai', { url: values['openai-url'], model: values['openai-model'], apiKey }),
    ],
  });
  process.stdout.write(`${formatAsrTable(rows)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
