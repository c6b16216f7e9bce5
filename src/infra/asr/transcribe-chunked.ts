import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { extractChunk, type Chunk } from '../audio/wav-file.js';
import { AsrError, type AsrEngine, type AsrResult, type AsrWord } from './asr-engine.js';
import { orderWords, roundTime } from './asr-words.js';

export interface ChunkedTranscribeOptions {
  /** Chunks transcribed at the same time. Default: 1. */
  concurrency?: number;
  /** Passed to the engine for every chunk. */
  language?: string;
  /** Aborting stops all chunks in flight and starts no more. */
  signal?: AbortSignal;
  /**
   * Where chunk WAVs are written while they are transcribed (each is removed
   * when done, and the directory at the end). Default: a new directory beside `wavFile`.
   */
  scratchDir?: string;
  /** Called as each chunk finishes (in completion order), for progress reports. */
  onChunkDone?: (chunk: Chunk, result: AsrResult) => void;
}

/**
 * Transcribes a decoded WAV chunk by chunk (see `splitAtSilences`) and
 * stitches the words into one result with times from the start of the whole
 * file: each word is moved by its chunk's start and kept inside its chunk, so
 * the words of a later chunk never start before those of an earlier one.
 * The first failing chunk aborts the others and its error is thrown.
 *
 * @example
 * const chunks = await splitAtSilences(wav);
 * const { words } = await transcribeChunked(engine, wav, chunks, { concurrency: 2, language: 'en' });
 */
export async function transcribeChunked(
  engine: AsrEngine,
  wavFile: string,
  chunks: readonly Chunk[],
  opts: ChunkedTranscribeOptions = {},
): Promise<AsrResult> {
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));
  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (opts.signal?.aborted) controller.abort();

  const scratch = opts.scratchDir ? await mkdtemp(join(opts.scratchDir, 'chunks-')) : await mkdtemp(`${wavFile}-chunks-`);
  const results: AsrResult[] = new Array(chunks.length);
  let next = 0;
  let failure: unknown = null;

  const worker = async (): Promise<void> => {
    while (next < chunks.length && !controller.signal.aborted) {
      const i = next++;
      const chunk = chunks[i];
      const file = join(scratch, `chunk-${chunk.index}.wav`);
      try {
        await extractChunk(wavFile, chunk, file);
        const result = await engine.transcribe(file, { language: opts.language, signal: controller.signal });
        results[i] = result;
        opts.onChunkDone?.(chunk, result);
      } catch (err) {
        failure ??= err;
        controller.abort();
      } finally {
        await rm(file, { force: true });
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
  } finally {
    opts.signal?.removeEventListener('abort', onOuterAbort);
    await rm(scratch, { recursive: true, force: true });
  }
  if (failure) throw failure;
  if (opts.signal?.aborted) throw new AsrError('aborted', 'transcription aborted');
  return stitch(engine, chunks, results, opts.language);
}

/** Joins per-chunk results (times relative to each chunk) into one result on the file's clock. */
export function stitch(
  engine: Pick<AsrEngine, 'name' | 'model'>,
  chunks: readonly Chunk[],
  results: readonly AsrResult[],
  language?: string,
): AsrResult {
  const words: AsrWord[] = [];
  chunks.forEach((chunk, i) => {
    const clamp = (t: number): number => roundTime(Math.min(Math.max(chunk.startSeconds + t, chunk.startSeconds), chunk.endSeconds));
    for (const word of results[i]?.words ?? []) {
      words.push({ w: word.w, s: clamp(word.s), e: clamp(word.e) });
    }
  });
  return {
    words: orderWords(words),
    text: results
      .map((r) => r?.text.trim() ?? '')
      .filter(Boolean)
      .join(' '),
    engine: results[0]?.engine ?? engine.name,
    model: results[0]?.model ?? engine.model,
    language: language ?? results.find((r) => r?.language)?.language ?? '',
    wordTimesEstimated: results.some((r) => r?.wordTimesEstimated === true),
  };
}
