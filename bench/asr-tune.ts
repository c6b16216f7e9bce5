/**
 * Decoder and front-end settings for sphinx, compared on one split of the
 * evaluation set (choose on `tuning`, report on `heldout`): WER per voice
 * and the real-time factor in CPU seconds of the decoder processes, which a
 * loaded machine changes far less than wall time.
 *
 *   npx tsx bench/asr-tune.ts --split tuning --settings lw6.5,lw5 [--voices rms,slt] [--passages news-1,interview-1] [--librivox]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { decodeToPcm } from '../src/infra/audio/decode-to-pcm.js';
import { readWavInfo } from '../src/infra/audio/wav-file.js';
import { createSphinxEngine } from '../src/infra/asr/sphinx-engine.js';
import { editDistance, normaliseWords } from '../src/infra/asr/word-error-rate.js';
import { evalClips, showVocabulary, type EvalVoice, type Split } from './asr-eval-set.js';

const run = promisify(execFile);

/** One way of decoding: the language weight, extra pocketsphinx arguments and an ffmpeg filter run on the audio first. */
interface Setting {
  lw?: number;
  /** Word insertion penalty (default: the engine's). */
  wip?: number;
  /** The lattice pass's language weight, `-bestpathlw` (default: the engine's). */
  bestpathlw?: number;
  args?: string[];
  filter?: string;
  /** Speaker warp (default on, as the engine). */
  warp?: boolean;
  /** The file's own cepstral mean as `-cmninit` (default on, as the engine). */
  fileCmn?: boolean;
  /** The show's vocabulary spotted (default on, as the engine in the pipeline; "before" had none). */
  vocabulary?: boolean;
  /** Gaussians scored per codebook and frame, `-topn` (default: the engine's). */
  topn?: number;
  /** Most HMMs active a frame, `-maxhmmpf` (default: the engine's). */
  maxhmm?: number;
  /** Files up to this many seconds decoded as one utterance (default: the engine's; 0 keeps the voice activity detector). */
  oneUtterance?: number;
}

export const SETTINGS: Record<string, Setting> = {
  /** The engine as it is (`-lw 5`, speaker warp, the file's own cepstral mean). */
  default: {},
  /** The engine before the language-weight, warp and CMN changes: the CPU baseline (1.5× its RTF is the limit). */
  before: { lw: 6.5, wip: 0.65, bestpathlw: 9.5, warp: false, fileCmn: false, oneUtterance: 0, topn: 4, maxhmm: 30_000, vocabulary: false },
  /** The engine before the file's own cepstral mean (`-lw 5`, warp, pocketsphinx's `-wip`). */
  nocmn: { wip: 0.65, fileCmn: false },
  /** The engine before the word insertion penalty (`-lw 5`, warp, the file's own mean). */
  wip0_65: { wip: 0.65 },
  /** pocketsphinx's own language weight, the engine's until the tuning below. */
  'lw6.5': { lw: 6.5 },
  // Loudness to −16 LUFS (podcast level), and the band the en-us model reads (its filterbank stops at 6.8 kHz).
  loudnorm: { lw: 6.5, filter: 'loudnorm=I=-16:TP=-1.5:LRA=11' },
  band: { lw: 6.5, filter: 'highpass=f=120,lowpass=f=6800' },
  'loudnorm+band': { lw: 6.5, filter: 'highpass=f=120,lowpass=f=6800,loudnorm=I=-16:TP=-1.5:LRA=11' },
  lw4: { lw: 4 },
  lw5: { lw: 5 },
  lw8: { lw: 8 },
  lw10: { lw: 10 },
  wide: { lw: 6.5, args: ['-beam', '1e-60', '-wbeam', '1e-40', '-pbeam', '1e-60'] },
  // Other word insertion penalties (the engine's 0.2 was chosen against pocketsphinx's 0.65 and 0.4).
  wip0_4: { wip: 0.4 },
  wip0_1: { wip: 0.1 },
  // More room for silence between words, where insertions at sentence boundaries were.
  silprob0_05: { args: ['-silprob', '0.05'] },
  'lw5+band': { lw: 5, filter: 'highpass=f=120,lowpass=f=6800' },
  'lw5+wide': { lw: 5, args: ['-beam', '1e-60', '-wbeam', '1e-40', '-pbeam', '1e-60'] },
  // Fillers ([NOISE], [SPEECH]) entered more readily, to absorb a music bed's swells and breaths instead of short words.
  fill1e_4: { args: ['-fillprob', '1e-4'] },
  fill1e_2: { args: ['-fillprob', '1e-2'] },
  // The second pass's hypothesis instead of the lattice's best path (which weighs the language model at 9.5).
  nobestpath: { args: ['-bestpath', 'no'] },
  // The lattice pass's language weight (pocketsphinx's 9.5, the engine's), and a denser lattice for it to choose from.
  bestpathlw7: { bestpathlw: 7 },
  bestpathlw11: { bestpathlw: 11 },
  bestpathlw12: { bestpathlw: 12 },
  bestpathlw13: { bestpathlw: 13 },
  bestpathlw15: { bestpathlw: 15 },
  bestpathlw20: { bestpathlw: 20 },
  denselattice: { args: ['-fwdflatbeam', '1e-80', '-fwdflatwbeam', '1e-40'] },
  // The voice activity detector on, as before files were decoded as one utterance.
  vad: { oneUtterance: 0 },
  // An FFT denoiser before decoding (tracks the noise floor; a music bed's sustained partials are part of it).
  afftdn: { filter: 'afftdn=nr=12:nf=-40:tn=1' },
  afftdn20: { filter: 'afftdn=nr=20:nf=-40:tn=1' },
  // Fixed warps for voices the pitch leaves unwarped (men's: run with --voices rms,awb,kal16).
  w0_95: { args: ['-warp_type', 'inverse_linear', '-warp_params', '0.95'] },
  w1_05: { args: ['-warp_type', 'inverse_linear', '-warp_params', '1.05'] },
  w1_1: { args: ['-warp_type', 'inverse_linear', '-warp_params', '1.1'] },
  // The first pass's phone lookahead prunes words by a phone loop's guess; 0 turns it off.
  pl0: { args: ['-pl_window', '0'] },
  // More of each codebook's Gaussians scored per frame (the en-us model is phonetically tied; pocketsphinx scores 4).
  topn4: { topn: 4 },
  topn6: { topn: 6 },
  topn8: { topn: 8 },
  topn16: { topn: 16 },
  // Spectral subtraction in the mel energies, which may take weak final consonants with the noise floor.
  nonoise: { args: ['-remove_noise', 'no'] },
  // Unigrams weighed less against the uniform distribution (pocketsphinx: 1.0).
  uw0_7: { args: ['-uw', '0.7'] },
  // No cap on active HMMs per frame (pocketsphinx: 30,000).
  nomaxhmm: { maxhmm: -1 },
  // pocketsphinx's own cap, the engine's before the CPU was brought back under 1.5× the old engine's.
  hmm30k: { maxhmm: 30_000 },
  // Less CPU: fewer active HMMs per frame, or narrower beams in the first pass.
  hmm10k: { maxhmm: 10_000 },
  hmm20k: { maxhmm: 20_000 },
  hmm5k: { maxhmm: 5_000 },
  hmm3k: { maxhmm: 3_000 },
  hmm7k: { maxhmm: 7_000 },
  'hmm10k+wbeam25': { maxhmm: 10_000, args: ['-wbeam', '1e-25'] },
  beam44: { args: ['-beam', '1e-44', '-pbeam', '1e-44'] },
  wbeam25: { args: ['-wbeam', '1e-25'] },
};

const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';

/** CPU seconds used by this process's finished children (the decoders): /proc's cutime + cstime. */
async function childCpuSeconds(): Promise<number> {
  const stat = await readFile('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

interface Item {
  id: string;
  group: string;
  wav: string;
  reference: string;
}

async function items(split: Split, voices: EvalVoice[] | undefined, passages: string[] | undefined, withLibrivox: boolean, scratch: string): Promise<Item[]> {
  const out: Item[] = (await evalClips(voices))
    .filter((c) => c.passage.split === split && (!passages || passages.includes(c.passage.id)))
    .map((c) => ({ id: `${c.id} ${c.mix}-${c.kbps}k`, group: c.voice, wav: c.wav, reference: c.passage.text }));
  if (withLibrivox) {
    const ids = (await readFile(join(LIBRIVOX, 'fileids'), 'utf8')).split('\n').map((l) => l.trim()).filter(Boolean);
    const refs = new Map<string, string>();
    for (const line of (await readFile(join(LIBRIVOX, 'transcription'), 'utf8')).split('\n')) {
      const m = /^(.*)\(([^)]+)\)\s*$/.exec(line);
      if (m) refs.set(m[2], m[1].replace(/<\/?s>/g, '').trim());
    }
    for (const id of ids) {
      const wav = join(scratch, `${id}.wav`);
      await decodeToPcm(join(LIBRIVOX, `${id}.wav`), wav);
      out.push({ id, group: 'librivox', wav, reference: refs.get(id) ?? '' });
    }
  }
  return out;
}

export async function tune(names: string[], split: Split, voices?: EvalVoice[], passages?: string[], withLibrivox = false, log = (l: string) => process.stderr.write(`${l}\n`)): Promise<string[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'asr-tune-'));
  try {
    const list = await items(split, voices, passages, withLibrivox, scratch);
    const groups = [...new Set(list.map((i) => i.group))];
    const lines = [`split ${split}, ${list.length} clips; WER by voice, all, CPU real-time factor of the decoders`, ['setting', ...groups, 'all', 'cpu rtf'].join('\t')];
    for (const name of names) {
      const setting = SETTINGS[name];
      if (!setting) throw new Error(`unknown setting ${name}: ${Object.keys(SETTINGS).join(', ')}`);
      const engine = createSphinxEngine({
        languageWeight: setting.lw,
        wordInsertionPenalty: setting.wip,
        latticeLanguageWeight: setting.bestpathlw,
        extraArgs: setting.args,
        speakerWarp: setting.warp,
        fileCmn: setting.fileCmn,
        oneUtteranceUpToSeconds: setting.oneUtterance,
        topGaussians: setting.topn,
        activeHmmsPerFrame: setting.maxhmm,
        timeoutMs: 30 * 60_000,
      });
      const by = new Map<string, { errors: number; words: number }>();
      let audio = 0;
      let cpu = 0;
      for (const item of list) {
        let wav = item.wav;
        if (setting.filter) {
          wav = join(scratch, `${name}-${item.group}-${list.indexOf(item)}.wav`);
          await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', item.wav, '-af', setting.filter, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', wav]);
        }
        const before = await childCpuSeconds();
        const own = process.cpuUsage();
        const result = await engine.transcribe(wav, { language: 'en', vocabulary: item.group === 'librivox' || setting.vocabulary === false ? undefined : showVocabulary() });
        // The decoders' CPU and this process's (reading the pitch, the vocabulary's files).
        const mine = process.cpuUsage(own);
        cpu += (await childCpuSeconds()) - before + (mine.user + mine.system) / 1e6;
        audio += (await readWavInfo(item.wav)).durationSeconds;
        const ref = normaliseWords(item.reference);
        const errors = editDistance(ref, normaliseWords(result.text));
        for (const g of [item.group, 'all']) {
          const s = by.get(g) ?? { errors: 0, words: 0 };
          by.set(g, { errors: s.errors + errors, words: s.words + ref.length });
        }
        log(`  ${name} ${item.id}: ${errors}/${ref.length}`);
      }
      const pct = (g: string) => `${((100 * by.get(g)!.errors) / by.get(g)!.words).toFixed(1)} %`;
      lines.push([name, ...groups.map(pct), pct('all'), (cpu / audio).toFixed(3)].join('\t'));
      log(lines[lines.length - 1]);
    }
    return lines;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: { split: { type: 'string' }, settings: { type: 'string' }, voices: { type: 'string' }, passages: { type: 'string' }, librivox: { type: 'boolean' } },
  });
  tune(
    (values.settings ?? 'default').split(','),
    (values.split ?? 'tuning') as Split,
    values.voices ? (values.voices.split(',') as EvalVoice[]) : undefined,
    values.passages?.split(','),
    values.librivox ?? false,
  )
    .then((lines) => process.stdout.write(`${lines.join('\n')}\n`))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    });
}
