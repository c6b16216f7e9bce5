/** One recognised word: text and its start and end, in seconds from the start of the audio given. */
export interface AsrWord {
  w: string;
  s: number;
  e: number;
}

export interface AsrResult {
  /** In time order; start ≤ end; fillers and silence markers removed. */
  words: AsrWord[];
  text: string;
  /** Engine name (`sphinx`, `whisper-cpp`, `openai`). */
  engine: string;
  /** Model as the engine names it (`en-us`, `ggml-base.en`, `whisper-1`). */
  model: string;
  /** Language asked for, or the one the engine detected (as it reports it). */
  language: string;
  /**
   * True when the engine timed only phrases and some words' times were
   * spread over their phrase by length, not heard. Default: false.
   */
  wordTimesEstimated?: boolean;
}

export interface TranscribeOptions {
  /** ISO 639-1 code (`en`). Default: the engine's own choice (detection, or its only language). */
  language?: string;
  /** Aborting stops the engine (kills its process, cancels its request). */
  signal?: AbortSignal;
  /**
   * The show's own words: names and rare terms the audio likely contains
   * (host, guests, places), written as the show writes them. sphinx spots
   * them in a second pass; the whisper engines get them as their prompt.
   * Default: none.
   */
  vocabulary?: readonly string[];
}

/** A speech recogniser: takes a 16 kHz mono 16-bit PCM WAV file, returns timed words. */
export interface AsrEngine {
  readonly name: string;
  readonly model: string;
  /** Whether the engine can run here; `reason` says what is missing when not. */
  available(): Promise<{ ok: boolean; reason?: string }>;
  transcribe(wavFile: string, opts: TranscribeOptions): Promise<AsrResult>;
}

/**
 * `unavailable`: the engine is not installed or configured; `unsupported_language`:
 * it cannot do the language asked for; `failed`: it ran and failed
 * (`retryable` when a later attempt may succeed: timeouts, HTTP 429/5xx);
 * `aborted`: the caller's signal fired.
 */
export type AsrErrorCode = 'unavailable' | 'unsupported_language' | 'failed' | 'aborted';

export class AsrError extends Error {
  constructor(
    readonly code: AsrErrorCode,
    message: string,
    readonly retryable = false,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AsrError';
  }
}
