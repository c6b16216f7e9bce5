/**
 * The sphinx engine as it was and as it is, on the generated evaluation set
 * (`asr-eval-set.ts`) and the LibriVox clips, in one run: WER per voice and
 * split, per mix and bit rate, per source, real-time factor, and how many of
 * the guests' names the transcript spells.
 *
 *   npx tsx bench/asr-quality.ts [--voices rms,slt] [--split heldout] [--configs before,after]
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
import { createSphinxEngine } from '../src/infra/asr/sphinx-engine.js';
import { editDistance, normaliseWords } from '../src/infra/asr/word-error-rate.js';
import { evalClips, showVocabulary, type EvalVoice, type Split } from './asr-eval-set.js';

interface Scored {
  group: string[];
  errors: number;
  words: number;
  audioSeconds: number;
  engineSeconds: number;
  /** For clips with names: occurrences spoken and spelt out. */
  namesSpoken: number;
  namesFound: number;
}

interface Config {
  label: string;
  engine: AsrEngine;
  vocabulary?: string[];
}

const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';
/** A loaded shared machine can be many times slower than the engine's own limit allows for. */
const timeoutMs = 30 * 60_000;

function occurrences(haystack: string[], needle: string[]): number {
  let n = 0;
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((w, k) => haystack[i + k] === w)) n++;
  }
  return n;
}

async function librivox(scratch: string): Promise<{ id: string; wav: string; reference: string }[]> {
  const ids = (await readFile(join(LIBRIVOX, 'fileids'), 'utf8')).split('\n').map((l) => l.trim()).filter(Boolean);
  const refs = new Map<string, string>();
  for (const line of (await readFile(join(LIBRIVOX, 'transcription'), 'utf8')).split('\n')) {
    const m = /^(.*)\(([^)]+)\)\s*$/.exec(line);
    if (m) refs.set(m[2], m[1].replace(/<\/?s>/g, '').trim());
  }
  const out = [];
  for (const id of ids) {
    const wav = join(scratch, `${id}.wav`);
    await decodeToPcm(join(LIBRIVOX, `${id}.wav`), wav);
    out.push({ id, wav, reference: refs.get(id) ?? '' });
  }
  return out;
}

async function score(config: Config, wav: string, reference: string, group: string[], names: string[] = []): Promise<Scored> {
  const started = performance.now();
  const result = await config.engine.transcribe(wav, { language: 'en', vocabulary: config.vocabulary });
  const engineSeconds = (performance.now() - started) / 1000;
  const ref = normaliseWords(reference);
  const hyp = normaliseWords(result.text);
  let namesSpoken = 0;
  let namesFound = 0;
  for (const name of names) {
    const words = normaliseWords(name);
    const spoken = occurrences(ref, words);
    namesSpoken += spoken;
    namesFound += Math.min(spoken, occurrences(hyp, words));
  }
  return {
    group,
    errors: editDistance(ref, hyp),
    words: ref.length,
    audioSeconds: (await readWavInfo(wav)).durationSeconds,
    engineSeconds,
    namesSpoken,
    namesFound,
  };
}

function total(rows: Scored[]): { wer: number; rtf: number; audio: number; names: string } {
  const sum = (f: (r: Scored) => number): number => rows.reduce((s, r) => s + f(r), 0);
  const spoken = sum((r) => r.namesSpoken);
  return {
    wer: sum((r) => r.errors) / Math.max(1, sum((r) => r.words)),
    rtf: sum((r) => r.engineSeconds) / Math.max(1e-9, sum((r) => r.audioSeconds)),
    audio: sum((r) => r.audioSeconds),
    names: spoken ? `${sum((r) => r.namesFound)}/${spoken}` : '',
  };
}

/** Lines of the report: one row per group, a column pair (WER, RTF) per configuration. */
function table(configs: Config[], results: Scored[][], groupings: [string, (r: Scored) => string | null][]): string[] {
  const header = ['group', 'audio s', ...configs.flatMap((c) => [`WER ${c.label}`, `RTF ${c.label}`, `names ${c.label}`])];
  const rows: string[][] = [];
  for (const [title, keyOf] of groupings) {
    const keys = [...new Set(results[0].map(keyOf).filter((k): k is string => k !== null))];
    for (const key of keys) {
      const cells = results.map((rs) => total(rs.filter((r) => keyOf(r) === key)));
      rows.push([
        `${title} ${key}`,
        cells[0].audio.toFixed(0),
        ...cells.flatMap((c) => [`${(c.wer * 100).toFixed(1)} %`, c.rtf.toFixed(2), c.names]),
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows].map((cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  '));
}

/**
 * Decodes every clip with each configuration in turn (one process at a time,
 * so the real-time factor is one core's) and reports them side by side.
 */
export async function runAsrQualityBench(
  voices?: EvalVoice[],
  split?: Split,
  only?: string[],
  log = (l: string) => process.stderr.write(`${l}\n`),
): Promise<string[]> {
  const configs: Config[] = [
    { label: 'before', engine: createSphinxEngine({ speakerWarp: false, languageWeight: 6.5, wordInsertionPenalty: 0.65, fileCmn: false, oneUtteranceUpToSeconds: 0, topGaussians: 4, activeHmmsPerFrame: 30_000, timeoutMs }) },
    { label: 'after', engine: createSphinxEngine({ timeoutMs }), vocabulary: showVocabulary() },
  ];
  const chosen = configs.filter((c) => !only || only.includes(c.label));
  const clips = (await evalClips(voices)).filter((c) => !split || c.passage.split === split);
  const scratch = await mkdtemp(join(tmpdir(), 'asr-quality-'));
  try {
    const books = await librivox(scratch);
    const results: Scored[][] = [];
    for (const config of chosen) {
      log(`sphinx ${config.label}: ${clips.length} generated clips, ${books.length} LibriVox clips…`);
      const rows: Scored[] = [];
      for (const c of clips) {
        rows.push(await score(config, c.wav, c.passage.text, [c.voice, c.passage.split, `${c.mix}-${c.kbps}k`, c.passage.kind], c.passage.names));
        const r = rows[rows.length - 1];
        log(`  ${c.id} ${c.mix}-${c.kbps}k: ${r.errors}/${r.words} errors, ${r.engineSeconds.toFixed(1)} s for ${r.audioSeconds.toFixed(1)} s`);
      }
      for (const b of books) rows.push(await score(config, b.wav, b.reference, ['librivox', 'heldout', 'book', 'book']));
      results.push(rows);
    }
    return [
      '## Speech recognition: sphinx before and after speaker warp and show vocabulary, same run',
      ...table(chosen, results, [
        ['voice', (r) => r.group[0]],
        ['held-out', (r) => (r.group[1] === 'heldout' ? r.group[0] : null)],
        ['tuning', (r) => (r.group[1] === 'tuning' ? r.group[0] : null)],
        ['mix', (r) => (r.group[0] === 'librivox' ? null : r.group[2])],
        ['passage', (r) => (r.group[0] === 'librivox' ? null : r.group[3])],
        ['all', () => 'clips'],
      ]),
    ];
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { voices: { type: 'string' }, split: { type: 'string' }, configs: { type: 'string' } } });
  runAsrQualityBench(values.voices ? (values.voices.split(',') as EvalVoice[]) : undefined, values.split as Split | undefined, values.configs?.split(','))
    .then((lines) => process.stdout.write(`${lines.join('\n')}\n`))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    });
}
