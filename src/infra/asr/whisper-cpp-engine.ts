import { access, constants, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { lastLine, runCommand } from '../audio/run-command.js';
import { AsrError, type AsrEngine, type AsrResult, type TranscribeOptions } from './asr-engine.js';
import { orderWords, wordsText } from './asr-words.js';
import { readPcmWav, runEngine, spawnFailure } from './engine-checks.js';
import { vocabularyPrompt } from './vocabulary-prompt.js';
import { parseWhisperCppJson } from './whisper-cpp-output.js';

export interface WhisperCppEngineOptions {
  /** whisper.cpp command-line program (`whisper-cli`; `main` in releases before 1.7.4). Default: `whisper-cli` on the PATH. */
  binaryPath?: string;
  /** A ggml model file (`ggml-base.en.bin`, …), supplied by the operator. No default. */
  modelPath?: string;
  /** CPU threads per transcription. Default: whisper.cpp's own (min(4, cores)). */
  threads?: number;
  /** Limit per transcription, in milliseconds. Default: 120000 + 10000 per second of audio. */
  timeoutMs?: number;
  /** More whisper.cpp arguments (`['-bs', '5']`, `['--vad', '-vm', path]`). Default: none. */
  extraArgs?: readonly string[];
}

/**
 * whisper.cpp run as a program: one process per transcription, word-level
 * segments (`-ml 1 -sow`) read from its JSON output (`-oj`).
 *
 * @example
 * const whisper = createWhisperCppEngine({ modelPath: '/models/ggml-base.en.bin' });
 * if ((await whisper.available()).ok) await whisper.transcribe('/data/work/chunk-0.wav', { language: 'en' });
 */
export function createWhisperCppEngine(options: WhisperCppEngineOptions = {}): AsrEngine {
  const binary = options.binaryPath ?? 'whisper-cli';
  const modelPath = options.modelPath;
  const model = modelPath ? basename(modelPath).replace(/\.bin$/, '') : 'none';

  return {
    name: 'whisper-cpp',
    model,

    async available() {
      const missing: string[] = [];
      if (!modelPath) {
        missing.push('no model configured (ASR_MODEL, or FAST_ASR_MODEL for the fast lane: a ggml model file such as ggml-base.en.bin)');
      } else {
        try {
          await access(modelPath, constants.R_OK);
          if (!(await stat(modelPath)).isFile()) missing.push(`model ${modelPath} is not a file`);
        } catch {
          missing.push(`model not found at ${modelPath}`);
        }
      }
      try {
        await runCommand(binary, ['--help'], { timeoutMs: 10_000 });
      } catch (err) {
        missing.push(`${spawnFailure(binary, err)} (build whisper.cpp and set ASR_URL, or FAST_ASR_URL for the fast lane, to its whisper-cli)`);
      }
      return missing.length === 0 ? { ok: true } : { ok: false, reason: missing.join('; ') };
    },

    async transcribe(wavFile: string, opts: TranscribeOptions): Promise<AsrResult> {
      if (!modelPath) throw new AsrError('unavailable', 'whisper-cpp has no model configured');
      const file = resolve(wavFile);
      const info = await readPcmWav(file);
      // whisper knows languages, not regions: `en-US` is `en`.
      const language = opts.language ? opts.language.toLowerCase().split(/[-_]/)[0] : 'auto';
      const result = { engine: 'whisper-cpp', model };
      if (info.dataBytes === 0) return { ...result, language, words: [], text: '' };

      const scratch = await mkdtemp(join(dirname(file), '.whisper-'));
      try {
        const outBase = join(scratch, 'out');
        const prompt = vocabularyPrompt(opts.vocabulary);
        const args = [
          '-m', modelPath,
          '-f', file,
          '-l', language,
          '-oj', '-of', outBase,
          '-ml', '1', '-sow',
          '-np',
          ...(options.threads ? ['-t', String(options.threads)] : []),
          ...(prompt ? ['--prompt', prompt] : []),
          ...(options.extraArgs ?? []),
        ];
        const run = await runEngine(binary, args, {
          timeoutMs: options.timeoutMs ?? 120_000 + 10_000 * info.durationSeconds,
          signal: opts.signal,
          stderrTailBytes: 4096,
        });
        if (run.timedOut) throw new AsrError('failed', 'whisper.cpp timed out', true);
        // whisper.cpp exits 0 after some errors (unknown language, unreadable
        // input), so the JSON file is the only proof of success.
        let json: string;
        try {
          json = await readFile(`${outBase}.json`, 'utf8');
        } catch {
          const output = `${run.stdout}\n${run.stderrTail}`;
          // After an error whisper.cpp often prints its usage, so find the error line itself.
          const why = /^error: .*$/m.exec(output)?.[0] ?? (lastLine(output) || `exit ${run.exitCode}`);
          throw new AsrError('failed', `whisper.cpp wrote no result: ${why}`);
        }
        let parsed;
        try {
          parsed = parseWhisperCppJson(json);
        } catch {
          throw new AsrError('failed', 'whisper.cpp wrote JSON that cannot be read');
        }
        const words = orderWords(parsed.words);
        return { ...result, language: parsed.language ?? language, words, text: wordsText(words), wordTimesEstimated: parsed.wordTimesEstimated };
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
  };
}
