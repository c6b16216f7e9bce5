import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { speak } from '../../../test/audio/speak.js';
import { readWavInfo } from '../audio/wav-file.js';
import { httpPost, type PostFn } from './http-post.js';
import { createOpenAiEngine } from './openai-engine.js';

// The shape OpenAI documents for response_format=verbose_json with
// timestamp_granularities[]=word (and segment): text, language by name,
// duration, words[{word,start,end}], segments[{id,start,end,text,…}].
const VERBOSE_JSON = {
  task: 'transcribe',
  language: 'english',
  duration: 3.12,
  text: 'The weather was warm, and the children played.',
  words: [
    { word: 'The', start: 0.0, end: 0.18000000715255737 },
    { word: 'weather', start: 0.18000000715255737, end: 0.5199999809265137 },
    { word: 'was', start: 0.5199999809265137, end: 0.699999988079071 },
    { word: 'warm', start: 0.699999988079071, end: 1.1200000047683716 },
    { word: 'and', start: 1.2599999904632568, end: 1.399999976158142 },
    { word: 'the', start: 1.399999976158142, end: 1.5 },
    { word: 'children', start: 1.5, end: 1.9299999475479126 },
    { word: 'played', start: 1.9299999475479126, end: 2.2899999618530273 },
  ],
  segments: [
    {
      id: 0,
      seek: 0,
      start: 0.0,
      end: 2.29,
      text: ' The weather was warm, and the children played.',
      tokens: [50364, 440, 5503, 390, 4561, 11, 293, 264, 2227, 3737, 13, 50479],
      temperature: 0.0,
      avg_logprob: -0.21,
      compression_ratio: 0.89,
      no_speech_prob: 0.01,
    },
  ],
};

interface Seen {
  method?: string;
  path?: string;
  authorization?: string;
  form?: FormData;
}

let dir: string;
let wav: string;
let server: Server;
let base: string;
let seen: Seen;
let reply: (res: ServerResponse) => void;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'openai-'));
  wav = join(dir, 'speech.wav');
  await speak('The weather was warm, and the children played.', wav, { format: 'wav' });
  server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    // Parse the upload the way a server framework would.
    const request = new Request('http://stand-in', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: Buffer.concat(chunks),
    });
    seen = { method: req.method, path: req.url, authorization: req.headers.authorization, form: await request.formData() };
    reply(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  seen = {};
  reply = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(VERBOSE_JSON));
});

describe('openai engine', () => {
  it('uploads the WAV as documented and reads word times', async () => {
    const engine = createOpenAiEngine({ url: `${base}/v1/`, apiKey: 'sk-test-123', model: 'whisper-1' });
    expect(await engine.available()).toEqual({ ok: true });
    const result = await engine.transcribe(wav, {});

    expect(seen).toMatchObject({ method: 'POST', path: '/v1/audio/transcriptions', authorization: 'Bearer sk-test-123' });
    const form = seen.form!;
    expect(form.get('model')).toBe('whisper-1');
    expect(form.get('response_format')).toBe('verbose_json');
    expect(form.getAll('timestamp_granularities[]')).toContain('word');
    expect(form.get('language')).toBeNull();
    const file = form.get('file') as File;
    expect(file.name).toBe('audio.wav');
    expect(Buffer.from(await file.arrayBuffer()).equals(await readFile(wav))).toBe(true);

    expect(result).toMatchObject({ engine: 'openai', model: 'whisper-1', language: 'en', text: VERBOSE_JSON.text });
    expect(result.words).toHaveLength(8);
    expect(result.words[1]).toEqual({ w: 'weather', s: 0.18, e: 0.52 });
    expect(result.words[7]).toEqual({ w: 'played', s: 1.93, e: 2.29 });
    expect(result.wordTimesEstimated).toBe(false);
  });

  it('sends the language asked for, as a bare ISO 639-1 code', async () => {
    const result = await createOpenAiEngine({ url: base }).transcribe(wav, { language: 'en-GB' });
    expect(seen.form!.get('language')).toBe('en');
    expect(seen.authorization).toBeUndefined();
    expect(result.language).toBe('en');
  });

  it('falls back to segment times when a server gives no word times', async () => {
    const { words: _omitted, ...segmentsOnly } = VERBOSE_JSON;
    reply = (res) => res.writeHead(200).end(JSON.stringify(segmentsOnly));
    const { words, wordTimesEstimated } = await createOpenAiEngine({ url: base }).transcribe(wav, {});
    expect(words.map((w) => w.w)).toEqual(['The', 'weather', 'was', 'warm,', 'and', 'the', 'children', 'played.']);
    expect(words[0].s).toBe(0);
    expect(words[words.length - 1].e).toBe(2.29);
    expect(wordTimesEstimated).toBe(true);
  });

  it('reads word times given inside each segment, as whisper.cpp\'s server and faster-whisper give them', async () => {
    const segments = [
      { id: 0, start: 0, end: 1.2, text: ' The weather was warm,', words: VERBOSE_JSON.words.slice(0, 4).map((w) => ({ ...w, probability: 0.9 })) },
      { id: 1, start: 1.26, end: 2.29, text: ' and the children played.', words: VERBOSE_JSON.words.slice(4) },
    ];
    reply = (res) => res.writeHead(200).end(JSON.stringify({ task: 'transcribe', language: 'english', duration: 3.12, text: VERBOSE_JSON.text, segments }));
    const { words, wordTimesEstimated } = await createOpenAiEngine({ url: base }).transcribe(wav, {});
    expect(wordTimesEstimated).toBe(false);
    expect(words).toHaveLength(8);
    expect(words[1]).toEqual({ w: 'weather', s: 0.18, e: 0.52 });
    expect(words[4]).toEqual({ w: 'and', s: 1.26, e: 1.4 });
    expect(words[7]).toEqual({ w: 'played', s: 1.93, e: 2.29 });
  });

  it('spreads the text over the clip when a server answers text alone, instead of hearing silence', async () => {
    const clipSeconds = (await readWavInfo(wav)).durationSeconds;
    reply = (res) => res.writeHead(200).end(JSON.stringify({ text: ' The weather was warm, and the children played.' }));
    const { words, text, wordTimesEstimated } = await createOpenAiEngine({ url: base }).transcribe(wav, {});
    expect(wordTimesEstimated).toBe(true);
    expect(text).toBe('The weather was warm, and the children played.');
    expect(words.map((w) => w.w)).toEqual(['The', 'weather', 'was', 'warm,', 'and', 'the', 'children', 'played.']);
    expect(words[0].s).toBe(0);
    expect(words[words.length - 1].e).toBeCloseTo(clipSeconds, 2);
    reply = (res) => res.writeHead(200).end(JSON.stringify({ text: 'The weather was warm.', duration: 2 }));
    const told = await createOpenAiEngine({ url: base }).transcribe(wav, {});
    expect(told.words.map((w) => [w.w, w.s])).toEqual([['The', 0], ['weather', 0.333], ['was', 1.111], ['warm.', 1.444]]);
  });

  it('reports a rejected key as unavailable without repeating the key', async () => {
    reply = (res) =>
      res.writeHead(401).end(JSON.stringify({ error: { message: 'Incorrect API key provided: sk-test-123', type: 'invalid_request_error' } }));
    const error = await createOpenAiEngine({ url: base, apiKey: 'sk-test-123' }).transcribe(wav, {}).catch((e) => e);
    expect(error).toMatchObject({ code: 'unavailable', retryable: false });
    expect(error.message).toContain('401');
    expect(error.message).not.toContain('sk-test-123');
  });

  it('marks overload and server errors retryable, bad requests not', async () => {
    const engine = createOpenAiEngine({ url: base });
    reply = (res) => res.writeHead(429).end('{"error":{"message":"Rate limit reached"}}');
    await expect(engine.transcribe(wav, {})).rejects.toMatchObject({ code: 'failed', retryable: true });
    reply = (res) => res.writeHead(503).end('upstream busy');
    await expect(engine.transcribe(wav, {})).rejects.toMatchObject({ code: 'failed', retryable: true });
    reply = (res) => res.writeHead(400).end('{"error":{"message":"Invalid file format."}}');
    await expect(engine.transcribe(wav, {})).rejects.toMatchObject({ code: 'failed', retryable: false, message: expect.stringContaining('Invalid file format') });
    reply = (res) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    await expect(engine.transcribe(wav, {})).rejects.toMatchObject({ code: 'failed', details: { status: 302 } });
  });

  it('refuses JSON that holds no transcription (retryable), and keeps a real empty one (silence)', async () => {
    const engine = createOpenAiEngine({ url: base });
    for (const body of ['{}', 'null', '{"text":null,"segments":null,"words":null}', '[]']) {
      reply = (res) => res.writeHead(200).end(body);
      await expect(engine.transcribe(wav, {}), body).rejects.toMatchObject({ code: 'failed', retryable: true });
    }
    reply = (res) => res.writeHead(200).end('{"text":"","segments":[],"language":"english"}');
    expect(await engine.transcribe(wav, {})).toMatchObject({ text: '', words: [] });
  });

  it('keeps a word whose time is unreadable, timed after the word before it, and no time past the audio\'s duration', async () => {
    const words = [
      { word: 'The', start: 0, end: 0.2 },
      { word: 'weather', start: 'soon', end: null },
      { word: 'was', start: 0.6, end: 0.8 },
      { word: 'warm.', start: 9999, end: 10_000 },
    ];
    reply = (res) => res.writeHead(200).end(JSON.stringify({ text: 'The weather was warm.', duration: 3.12, words }));
    const result = await createOpenAiEngine({ url: base }).transcribe(wav, {});
    expect(result.words).toEqual([
      { w: 'The', s: 0, e: 0.2 },
      { w: 'weather', s: 0.2, e: 0.2 },
      { w: 'was', s: 0.6, e: 0.8 },
      { w: 'warm.', s: 3.12, e: 3.12 },
    ]);
  });

  it('gives up after timeoutMs, and when aborted', async () => {
    reply = () => undefined; // never answers
    const slow = createOpenAiEngine({ url: base, timeoutMs: 300 });
    await expect(slow.transcribe(wav, {})).rejects.toMatchObject({ code: 'failed', retryable: true });
    const controller = new AbortController();
    const pending = createOpenAiEngine({ url: base }).transcribe(wav, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });

  it('sends through an injected post function', async () => {
    const urls: string[] = [];
    const post: PostFn = (request) => {
      urls.push(request.url);
      return httpPost(request);
    };
    await createOpenAiEngine({ url: `${base}/v1`, post }).transcribe(wav, {});
    expect(urls).toEqual([`${base}/v1/audio/transcriptions`]);
  });

  it('says what is missing and refuses files over the upload limit', async () => {
    expect(await createOpenAiEngine({}).available()).toEqual({ ok: false, reason: 'no server URL configured' });
    expect((await createOpenAiEngine({ url: 'ftp://x' }).available()).ok).toBe(false);
    await expect(createOpenAiEngine({}).transcribe(wav, {})).rejects.toMatchObject({ code: 'unavailable' });
    await expect(createOpenAiEngine({ url: base, maxUploadBytes: 1000 }).transcribe(wav, {})).rejects.toMatchObject({
      code: 'failed',
    });
  });
});
