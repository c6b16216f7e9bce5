import { access, constants, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { lastLine, runCommand } from '../audio/run-command.js';
import { AsrError, type AsrEngine, type AsrResult, type TranscribeOptions } from './asr-engine.js';
import { orderWords, roundTime, wordsText } from './asr-words.js';
import { languageMatches, readPcmWav, runEngine, spawnFailure } from './engine-checks.js';
import { chooseWarp } from './speaker-warp.js';
import { cmnProbeArgs, parseCmnUpdate, prepareCmnProbe, readFeatParams, writeFeatParams, type CmnProbe } from './sphinx-cmn.js';
import { parsePocketsphinx5Output, readContinuousOutput, type ContinuousOutput } from './sphinx-output.js';
import { mergeDetections, parseDetections, prepareVocabulary, readDictionary } from './sphinx-vocabulary.js';

export interface SphinxEngineOptions {
  /**
   * pocketsphinx executable. One named `pocketsphinx` is driven as
   * pocketsphinx 5 (`live`, JSON lines); any other as
   * `pocketsphinx_continuous` (5prealpha, Debian 12). Default:
   * `pocketsphinx_continuous` on the PATH.
   */
  binaryPath?: string;
  /** Overrides the command-line flavour guessed from the executable's name. */
  cli?: 'continuous' | 'pocketsphinx5';
  /**
   * Model directory laid out as the `pocketsphinx-en-us` package installs it:
   * `<dir>/en-us/` (acoustic model), `<dir>/en-us.lm.bin`, `<dir>/cmudict-en-us.dict`.
   * Default: `/usr/share/pocketsphinx/model/en-us`.
   */
  modelDir?: string;
  /** Acoustic model directory. Default: `<modelDir>/en-us`. */
  hmmDir?: string;
  /** Language model. Default: `<modelDir>/en-us.lm.bin`. */
  lmFile?: string;
  /** Pronunciation dictionary. Default: `<modelDir>/cmudict-en-us.dict`. */
  dictFile?: string;
  /** The model's language, ISO 639-1. Default: `en`. */
  language?: string;
  /**
   * CPU time allowed per transcription, in milliseconds (pocketsphinx uses
   * 0.2–0.4 s of CPU per second of audio). A limit on CPU rather than wall
   * time is proportionate to the machine's speed: a loaded machine, where the
   * recogniser gets a tenth of a core, does not trip it. Wall time is bounded
   * too, at ten times this, against a process that hangs without computing.
   * Default: 60000 + 2000 per second of audio.
   */
  timeoutMs?: number;
  /**
   * More pocketsphinx arguments, for tuning, given to every pass; they
   * replace the engine's own values of the same flags (the probe for the
   * file's mean keeps its own search). Default: none.
   */
  extraArgs?: readonly string[];
  /**
   * Language-model weight (`-lw`): how far the language model outweighs the
   * acoustics. Chosen on the evaluation set's tuning split: 5 gave 19.5 % WER
   * against 21.0 % at pocketsphinx's 6.5 (8 and 10 were worse on every
   * voice); held out, rms 15.7 → 13.5 %, LibriVox 36.6 → 35.2 %, for about
   * 1.3× the CPU (BENCHMARKS.md). Default: 5.
   */
  languageWeight?: number;
  /**
   * Word insertion penalty (`-wip`, a probability: smaller penalises new
   * words more). The lighter language weight lets in short words at
   * sentence boundaries ("at the", "and"); 0.2 against pocketsphinx's 0.65
   * took the tuning split from 56 to 51 errors of 400 words and held-out rms
   * from 11 to 10 of 89, LibriVox level, CPU level (BENCHMARKS.md). Default: 0.2.
   */
  wordInsertionPenalty?: number;
  /**
   * Language-model weight of the last pass (`-bestpathlw`), which picks the
   * best path through the second pass's word lattice. 11–12 took the tuning
   * split from 13.6 to 12.0 % WER, but held out it was worse (12.1 → 12.8 %,
   * LibriVox 28.2 → 32.4 %), so pocketsphinx's own weight stays
   * (BENCHMARKS.md). Default: 9.5.
   */
  latticeLanguageWeight?: number;
  /**
   * Chooses a frequency warp per file from the speaker's pitch (see
   * `chooseWarp`): higher voices are scaled towards the model's; men's
   * voices are left as they are. Reading the pitch costs 50–200 ms of CPU a
   * minute of audio and stops when the transcription is aborted. Default: true.
   */
  speakerWarp?: boolean;
  /**
   * Starts the cepstral mean normalisation from the file's own mean, read by
   * a cheap first pass, instead of the model's (see `sphinx-cmn.ts`):
   * pocketsphinx_continuous only moves off the model's mean 8 s into an
   * utterance or at its end, so short clips and the start of every chunk were
   * decoded with the wrong one. Tuning split 19.5 → 14.0 % WER, held out rms
   * 13.5 → 12.4 %, LibriVox 35.2 → 28.2 %; the pass costs about 1 % of the
   * decoding's CPU (`bench/asr-tune.ts`, settings `default` against `nocmn`).
   * `pocketsphinx_continuous` only. Default: true.
   */
  fileCmn?: boolean;
  /**
   * Files up to this many seconds are decoded as one utterance
   * (`-remove_silence no`). With its voice activity detector on, Debian's
   * pocketsphinx_continuous sometimes reports a whole utterance seconds
   * late (a 13.8 s clip's first word at 6.8 s): the words' times were wrong,
   * and the show's names, spotted at the same late times, replaced the wrong
   * words. Without it the times are the audio's. Longer files keep the
   * detector, so no utterance grows without bound (the pipeline's chunks are
   * at most 60 s). `pocketsphinx_continuous` only; 0 keeps the detector
   * always. Default: 120.
   */
  oneUtteranceUpToSeconds?: number;
  /**
   * Gaussians scored per codebook and frame (`-topn`; the en-us model is
   * phonetically tied, 128 a codebook). 8 against pocketsphinx's 4: tuning
   * split 12.9 → 12.1 % WER, held out 12.2 → 11.8 % (rms 11.9 → 11.3 %,
   * LibriVox 28.2 → 26.8 %), for 10 % more CPU; 16 was no better and cost
   * 35 % (BENCHMARKS.md). Default: 8.
   */
  topGaussians?: number;
  /**
   * Most HMMs kept active a frame (`-maxhmmpf`; pocketsphinx: 30,000). The
   * lighter language weight and more Gaussians had taken the engine past
   * 1.5× the CPU of the engine it replaced; at 10,000 not one word of the
   * evaluation set changed, tuning or held out, and the CPU fell 12 %
   * (BENCHMARKS.md). Default: 10000.
   */
  activeHmmsPerFrame?: number;
}

/**
 * CMU pocketsphinx: CPU-only and offline, 0.2–0.4 × real time on one core
 * with the en-us model. The embedded default engine.
 *
 * @example
 * const sphinx = createSphinxEngine();
 * const { words } = await sphinx.transcribe('/data/work/chunk-0.wav', { language: 'en' });
 */
export function createSphinxEngine(options: SphinxEngineOptions = {}): AsrEngine {
  const binary = options.binaryPath ?? 'pocketsphinx_continuous';
  const cli = options.cli ?? (basename(binary) === 'pocketsphinx' ? 'pocketsphinx5' : 'continuous');
  const modelDir = options.modelDir ?? '/usr/share/pocketsphinx/model/en-us';
  const hmm = options.hmmDir ?? join(modelDir, 'en-us');
  const lm = options.lmFile ?? join(modelDir, 'en-us.lm.bin');
  const dict = options.dictFile ?? join(modelDir, 'cmudict-en-us.dict');
  const language = options.language ?? 'en';
  const model = basename(modelDir);
  const extra = options.extraArgs ?? [];
  const searchArgs = ['-lw', String(options.languageWeight ?? 5), '-wip', String(options.wordInsertionPenalty ?? 0.2), '-bestpathlw', String(options.latticeLanguageWeight ?? 9.5), '-topn', String(options.topGaussians ?? 8), '-maxhmmpf', String(options.activeHmmsPerFrame ?? 10_000)];
  const modelFiles = ['-hmm', hmm, '-lm', lm, '-dict', dict];
  const limits = (audioSeconds: number) => {
    const cpuLimitMs = options.timeoutMs ?? 60_000 + 2_000 * audioSeconds;
    return { cpuLimitMs, timeoutMs: 10 * cpuLimitMs };
  };
  // Read once, on the first transcription with a vocabulary.
  let dictionary: Promise<Map<string, number>> | null = null;
  // Read and written once, on the first transcription.
  let featParams: Promise<string | null> | null = null;
  let probe: Promise<CmnProbe> | null = null;
  const fileCmn = cli === 'continuous' && options.fileCmn !== false && !extra.includes('-featparams') && !extra.includes('-cmninit');

  return {
    name: 'sphinx',
    model,

    async available() {
      for (const [what, file] of [
        ['acoustic model', join(hmm, 'mdef')],
        ['language model', lm],
        ['dictionary', dict],
      ] as const) {
        try {
          await access(file, constants.R_OK);
        } catch {
          return { ok: false, reason: `pocketsphinx ${what} not found at ${file} (Debian: apt install pocketsphinx-en-us)` };
        }
      }
      try {
        // Without arguments both flavours print their usage and exit at once.
        await runCommand(binary, cli === 'pocketsphinx5' ? ['help'] : [], { timeoutMs: 10_000 });
      } catch (err) {
        return { ok: false, reason: `${spawnFailure(binary, err)} (Debian: apt install pocketsphinx)` };
      }
      return { ok: true };
    },

    async transcribe(wavFile: string, opts: TranscribeOptions): Promise<AsrResult> {
      if (opts.language && !languageMatches(opts.language, language)) {
        throw new AsrError('unsupported_language', `the sphinx model ${model} recognises ${language} only`);
      }
      const file = resolve(wavFile);
      const info = await readPcmWav(file);
      const result = { engine: 'sphinx', model, language };
      if (info.dataBytes === 0) return { ...result, words: [], text: '' };

      // `live` splits at pauses as pocketsphinx_continuous does; `single` would
      // decode the whole file as one utterance, which grows without bound.
      const warp = options.speakerWarp === false ? 1 : (await chooseWarp(file, opts.signal)).warp;
      const warpArgs = warp === 1 ? [] : ['-warp_type', 'inverse_linear', '-warp_params', String(warp)];
      const oneUtterance = cli === 'continuous' && info.durationSeconds <= (options.oneUtteranceUpToSeconds ?? 120);
      const frontEnd = [...warpArgs, ...(oneUtterance ? ['-remove_silence', 'no'] : [])];

      // The file's own cepstral mean, from a pass with a one-word language model; without one, the model's.
      let featFile: string | null = null;
      if (fileCmn) {
        featParams ??= readFeatParams(hmm);
        const modelFeat = await featParams;
        if (modelFeat !== null) {
          probe ??= prepareCmnProbe();
          // The decode's front end (tuning arguments win, as there), the probe's own search.
          const probeArgs = ['-infile', file, '-hmm', hmm, ...argsWith(argsWith(frontEnd, extra), cmnProbeArgs(await probe))];
          let mean = null as number[] | null;
          const pass = await runEngine(binary, probeArgs, {
            ...limits(info.durationSeconds),
            signal: opts.signal,
            stderrTailBytes: 4096,
            onStderrLine: (line) => {
              mean = parseCmnUpdate(line) ?? mean;
            },
          });
          // A failed pass leaves the model's mean: the transcript is decoded as before.
          if (mean && pass.exitCode === 0 && !pass.timedOut) featFile = await writeFeatParams(modelFeat, mean);
        }
      }
      try {
        return await decode(file, info.durationSeconds, [...frontEnd, ...(featFile ? ['-featparams', featFile] : [])], opts);
      } finally {
        if (featFile) await rm(featFile, { force: true });
      }
    },
  };

  /** Decodes with the given front-end arguments (warp, feat.params), then spots the vocabulary. */
  async function decode(file: string, audioSeconds: number, frontEndArgs: string[], opts: TranscribeOptions): Promise<AsrResult> {
    const result = { engine: 'sphinx', model, language };
    const engineArgs = [...modelFiles, ...argsWith([...searchArgs, ...frontEndArgs], extra)];
    const args = cli === 'pocketsphinx5' ? [...engineArgs, 'live', file] : ['-infile', file, '-time', 'yes', ...engineArgs];
    const run = await runEngine(binary, args, { ...limits(audioSeconds), signal: opts.signal, stderrTailBytes: 4096 });
    if (run.timedOut) throw new AsrError('failed', 'pocketsphinx timed out', true);
    if (run.exitCode !== 0) {
      throw new AsrError('failed', `pocketsphinx failed: ${lastLine(run.stderrTail) || `exit ${run.exitCode}`}`);
    }
    const output: ContinuousOutput =
      cli === 'pocketsphinx5' ? { words: parsePocketsphinx5Output(run.stdout), shiftAt: () => 0 } : readContinuousOutput(run.stdout, audioSeconds);
    let words = orderWords(output.words);
    // Keyword spotting costs about a tenth of the decoding; pocketsphinx 5's `live` has no such mode.
    if (opts.vocabulary?.length && cli === 'continuous') {
      dictionary ??= readDictionary(dict);
      const vocabulary = await prepareVocabulary(opts.vocabulary, dict, await dictionary);
      if (vocabulary) {
        // The decode's front end and tuning arguments, so the names are heard as its words were.
        const spotArgs = ['-infile', file, '-time', 'yes', '-hmm', hmm, '-dict', vocabulary.dictFile, '-kws', vocabulary.kwsFile, ...argsWith(frontEndArgs, extra)];
        const spot = await runEngine(binary, spotArgs, { ...limits(audioSeconds), signal: opts.signal, stderrTailBytes: 4096 });
        // A failed spotting pass loses the names, not the transcript.
        if (spot.exitCode === 0 && !spot.timedOut) {
          // Moved back as the words of the same utterance were, when the decoder reported it late.
          const detections = parseDetections(spot.stdout).map((d) => {
            const shift = output.shiftAt((d.s + d.e) / 2);
            return { ...d, s: roundTime(d.s - shift), e: roundTime(d.e - shift) };
          });
          words = orderWords(mergeDetections(words, detections, vocabulary.phrases));
        }
      }
    }
    return { ...result, words, text: wordsText(words) };
  }
}

/** `base` (flag and value pairs) without the flags `over` sets, then `over`: pocketsphinx refuses a flag given twice. */
export function argsWith(base: readonly string[], over: readonly string[]): string[] {
  const set = new Set(over.filter((a, i) => i % 2 === 0));
  const kept: string[] = [];
  for (let i = 0; i + 1 < base.length; i += 2) if (!set.has(base[i]!)) kept.push(base[i]!, base[i + 1]!);
  return [...kept, ...over];
}
