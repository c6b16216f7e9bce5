import { readFile } from 'node:fs/promises';
import { AsrError, type AsrEngine, type AsrResult, type AsrWord, type TranscribeOptions } from './asr-engine.js';
import { orderWords, roundTime, spreadWords, wordsText } from './asr-words.js';
import { httpPost, PostTimeoutError, type PostFn, type PostResponse } from './http-post.js';
import { readWavInfo } from '../audio/wav-file.js';
import { multipartBody } from './multipart-body.js';
import { vocabularyPrompt } from './vocabulary-prompt.js';
import { languageCode } from './whisper-language-codes.js';

export interface OpenAiEngineOptions {
  /**
   * Base URL of an OpenAI-compatible server, with or without `/v1`
   * (`https://api.openai.com`, `http://10.0.0.5:8000/v1`). No default.
   */
  url?: string;
  /** Sent as `Authorization: Bearer …` when set. Default: none. */
  apiKey?: string;
  /** Model name the server knows. Default: `whisper-1`. */
  model?: string;
  /** Limit per request (upload, recognition, answer), in milliseconds. Default: 300000. */
  timeoutMs?: number;
  /** Largest file sent, in bytes (OpenAI's limit is 25 MB; about 13 minutes of 16 kHz PCM). Default: 25000000. */
  maxUploadBytes?: number;
  /** How the request is sent. Default: {@link httpPost}. */
  post?: PostFn;
}

interface VerboseJson {
  text?: unknown;
  duration?: unknown;
  language?: unknown;
  words?: unknown;
  segments?: unknown;
}

/**
 * Any server speaking OpenAI's `POST /v1/audio/transcriptions` (OpenAI,
 * Groq, speaches, a rented GPU running faster-whisper): the WAV is uploaded
 * as multipart with `response_format=verbose_json` and word timestamps.
 * `available()` checks configuration only; it sends nothing.
 *
 * @example
 * const fast = createOpenAiEngine({ url: 'http://gpu:8000', model: 'Systran/faster-whisper-large-v3' });
 * const { words } = await fast.transcribe('/data/work/chunk-0.wav', { language: 'en' });
 */
export function createOpenAiEngine(options: OpenAiEngineOptions = {}): AsrEngine {
  const model = options.model ?? 'whisper-1';
  const post = options.post ?? httpPost;
  const maxUpload = options.maxUploadBytes ?? 25_000_000;

  const endpoint = (): string | null => {
    if (!options.url) return null;
    try {
      const url = new URL(options.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
      const base = url.href.replace(/\/+$/, '').replace(/\/v1$/, '');
      return `${base}/v1/audio/transcriptions`;
    } catch {
      return null;
    }
  };

  return {
    name: 'openai',
    model,

    async available() {
      if (!options.url) return { ok: false, reason: 'no server URL configured' };
      if (!endpoint()) return { ok: false, reason: `not an http(s) URL: ${options.url}` };
      return { ok: true };
    },

    async transcribe(wavFile: string, opts: TranscribeOptions): Promise<AsrResult> {
      const url = endpoint();
      if (!url) throw new AsrError('unavailable', 'the openai engine has no valid server URL configured');
      const audio = await readFile(wavFile);
      if (audio.length > maxUpload) {
        throw new AsrError('failed', `${audio.length} bytes is over the upload limit of ${maxUpload}; split the audio first`);
      }
      const language = opts.language?.toLowerCase().split(/[-_]/)[0];
      const prompt = vocabularyPrompt(opts.vocabulary);
      const { body, contentType } = multipartBody([
        ['file', { filename: 'audio.wav', contentType: 'audio/wav', data: audio }],
        ['model', model],
        ['response_format', 'verbose_json'],
        ['timestamp_granularities[]', 'word'],
        ['timestamp_granularities[]', 'segment'],
        ...(language ? ([['language', language]] as [string, string][]) : []),
        ...(prompt ? ([['prompt', prompt]] as [string, string][]) : []),
      ]);
      const headers: Record<string, string> = { 'content-type': contentType, accept: 'application/json' };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

      let response: PostResponse;
      try {
        response = await post({ url, headers, body, timeoutMs: options.timeoutMs ?? 300_000, signal: opts.signal });
      } catch (err) {
        if (opts.signal?.aborted) throw new AsrError('aborted', 'transcription aborted');
        if (err instanceof PostTimeoutError) throw new AsrError('failed', `speech server: ${err.message}`, true);
        throw new AsrError('failed', `speech server unreachable: ${(err as Error).message}`, true);
      }
      if (response.status < 200 || response.status > 299) throw statusError(response, options.apiKey);

      let doc: VerboseJson;
      try {
        doc = JSON.parse(response.body) as VerboseJson;
      } catch {
        throw new AsrError('failed', 'speech server answered with something other than JSON', true);
      }
      // JSON, but not a transcription (`{}`, nulls): a fault of the server, never an empty transcript to sell.
      const empty = () => new AsrError('failed', 'speech server answered JSON without a transcription (no text, segments or words)', true);
      if (doc === null || typeof doc !== 'object') throw empty();
      const read = readWords(doc) ?? { words: spreadText(doc, (await readWavInfo(wavFile)).durationSeconds), estimated: true };
      const words = orderWords(read.words);
      if (typeof doc.text !== 'string' && words.length === 0) throw empty();
      const reported = typeof doc.language === 'string' && doc.language ? languageCode(doc.language) : '';
      return {
        words,
        text: typeof doc.text === 'string' ? doc.text.trim() : wordsText(words),
        engine: 'openai',
        model,
        language: language ?? reported,
        wordTimesEstimated: read.estimated && words.length > 1,
      };
    },
  };
}

/**
 * `words[{word,start,end}]` when the server gives word times, at the top
 * level as OpenAI does or inside each segment as whisper.cpp's server and
 * faster-whisper do; else segments spread by length; null when it gives
 * neither. A word without readable times keeps its place (timed as the word
 * before it ends), and no time passes the audio's `duration`: a word is never
 * lost from the text, nor a cue shown after the audio ends. `estimated` says
 * some segment's several words were spread over it.
 */
function readWords(doc: VerboseJson): { words: AsrWord[]; estimated: boolean } | null {
  const end = typeof doc.duration === 'number' && doc.duration > 0 ? doc.duration : Infinity;
  const within = (t: number) => roundTime(Math.min(Math.max(t, 0), end));
  const time = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const timed = (list: Array<Record<string, unknown>>, from: number): AsrWord[] => {
    let last = from;
    const words: AsrWord[] = [];
    for (const x of list) {
      if (typeof x?.word !== 'string' || !x.word.trim()) continue;
      const s = within(time(x.start) ?? last);
      const e = within(Math.max(time(x.end) ?? s, s));
      words.push({ w: x.word.trim(), s, e });
      last = e;
    }
    return words;
  };
  if (Array.isArray(doc.words) && doc.words.length > 0) return { words: timed(doc.words as Array<Record<string, unknown>>, 0), estimated: false };
  if (Array.isArray(doc.segments)) {
    let estimated = false;
    const words = (doc.segments as Array<Record<string, unknown>>).flatMap((x) => {
      const start = time(x?.start);
      if (Array.isArray(x?.words) && x.words.length > 0) return timed(x.words as Array<Record<string, unknown>>, within(start ?? 0));
      const stop = time(x?.end);
      const spread = typeof x?.text === 'string' && start !== null && stop !== null ? spreadWords(x.text, within(start), within(stop)) : [];
      estimated ||= spread.length > 1;
      return spread;
    });
    return { words, estimated };
  }
  return null;
}

/**
 * A server that ignores `verbose_json` (whisper.cpp builds, proxies that
 * answer `{"text": …}` only) still heard the words: they are spread over the
 * clip, from its `duration` or else the WAV sent, rather than dropped as if
 * the clip were silent.
 */
function spreadText(doc: VerboseJson, wavSeconds: number): AsrWord[] {
  if (typeof doc.text !== 'string') return [];
  const seconds = typeof doc.duration === 'number' && doc.duration > 0 ? doc.duration : wavSeconds;
  return spreadWords(doc.text, 0, seconds);
}

/** OpenAI's error body is `{"error":{"message":…}}`; other servers send text. The key is never echoed. */
function statusError(response: PostResponse, apiKey: string | undefined): AsrError {
  let message = response.body.slice(0, 300);
  try {
    const parsed = JSON.parse(response.body) as { error?: { message?: unknown }; detail?: unknown };
    const m = parsed.error?.message ?? parsed.detail;
    if (typeof m === 'string') message = m;
  } catch {
    // not JSON: keep the text
  }
  if (apiKey) message = message.split(apiKey).join('***');
  const text = `speech server answered ${response.status}: ${message}`;
  if (response.status === 401 || response.status === 403) return new AsrError('unavailable', text);
  const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
  return new AsrError('failed', text, retryable, { status: response.status });
}
