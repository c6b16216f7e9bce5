import { type LocalServer, startLocalServer } from '../../../src/infra/outbound/local-test-server.js';

/**
 * A stand-in for a paid OpenAI-compatible speech server (the rented-GPU fast
 * lane), which tests and the bench cannot reach offline. It answers
 * `POST /v1/audio/transcriptions` as OpenAI documents `verbose_json` with word
 * timestamps, speaking `text` evenly over the first seconds of the clip (never
 * past its end, read from the WAV header). It records how many requests were
 * in flight at once, can take a fixed time per request with limited
 * parallelism (a GPU box), and can be told to fail or stall.
 */
export interface SpeechApi {
  endpoint: string;
  url: string;
  /** Transcription requests received. */
  calls(): number;
  /** The `prompt` field of each request received, in order (null when a request had none). */
  prompts(): (string | null)[];
  /** Most requests in flight at once since start (or the last `resetPeak`). */
  peakInFlight(): number;
  resetPeak(): void;
  /**
   * `ok` answers; `text` answers `{"text"}` alone, as servers that ignore
   * `verbose_json` do; `fail` answers 500 as an overloaded server does;
   * `stall` never answers.
   */
  mode: 'ok' | 'text' | 'fail' | 'stall';
  /** Answers this many more requests, then switches to `fail` (a server dying mid-episode). */
  failAfter(n: number): void;
  /** Time each request takes once it has a place, in ms. Default: 0. */
  delayMs: number;
  /** Requests processed at once; the rest wait their turn, as on one GPU. Default: unlimited. */
  parallelism: number;
  /** Holds answers until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

/** Seconds of 16 kHz mono 16-bit audio in a multipart body carrying a WAV (its data chunk size). */
function wavSeconds(body: Buffer): number {
  const data = body.indexOf('data', body.indexOf('WAVE'));
  if (data < 0) return 10;
  return body.readUInt32LE(data + 4) / 32_000;
}

/** A text field of a multipart/form-data body, or null when absent. */
function formField(body: Buffer, name: string): string | null {
  const m = new RegExp(`name="${name}"\\r\\n\\r\\n([\\s\\S]*?)\\r\\n--`).exec(body.toString('utf8'));
  return m ? m[1] : null;
}

export async function startSpeechApi(text: string): Promise<SpeechApi> {
  let calls = 0;
  const prompts: (string | null)[] = [];
  let inFlight = 0;
  let peak = 0;
  let okLeft = Number.POSITIVE_INFINITY;
  let gate: Promise<void> = Promise.resolve();
  let working = 0;
  const waiting: (() => void)[] = [];
  const stalled = new Set<import('node:http').ServerResponse>();
  const spoken = text.split(/\s+/).map((w) => w.replace(/[.,]/g, ''));
  const api: SpeechApi & { server?: LocalServer } = {
    endpoint: '',
    url: '',
    mode: 'ok',
    delayMs: 0,
    parallelism: Number.POSITIVE_INFINITY,
    calls: () => calls,
    prompts: () => [...prompts],
    peakInFlight: () => peak,
    resetPeak: () => {
      peak = inFlight;
    },
    failAfter(n) {
      okLeft = n;
    },
    hold() {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return release;
    },
    async close() {
      for (const res of stalled) res.destroy();
      await api.server!.close();
    },
  };
  const place = async () => {
    while (working >= api.parallelism) await new Promise<void>((r) => waiting.push(r));
    working += 1;
  };
  const leave = () => {
    working -= 1;
    waiting.shift()?.();
  };
  api.server = await startLocalServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
      res.writeHead(404).end();
      return;
    }
    calls += 1;
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    let done = false;
    const finish = () => {
      if (!done) inFlight -= 1;
      done = true;
    };
    res.on('close', finish);
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      void (async () => {
        prompts.push(formField(Buffer.concat(parts), 'prompt'));
        await gate;
        if (api.mode === 'ok' && okLeft <= 0) api.mode = 'fail';
        if (api.mode === 'ok') okLeft -= 1;
        if (api.mode === 'stall') {
          stalled.add(res);
          return;
        }
        await place();
        try {
          if (api.delayMs > 0) await new Promise((r) => setTimeout(r, api.delayMs));
        } finally {
          leave();
        }
        if (api.mode === 'fail') {
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'GPU out of memory' } }));
          return;
        }
        if (api.mode === 'text') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text }));
          return;
        }
        const duration = wavSeconds(Buffer.concat(parts));
        const step = Math.min(0.3, duration / (spoken.length + 1));
        const words = spoken.map((w, i) => ({ word: w, start: i * step, end: i * step + step * 0.8 }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ task: 'transcribe', language: 'english', duration, text, words }));
      })();
    });
  });
  api.endpoint = api.server.endpoint;
  api.url = api.server.url('/');
  return api;
}
