import { type LocalServer, startLocalServer } from '../../../src/infra/outbound/local-test-server.js';

/**
 * A stand-in for a paid OpenAI-compatible speech server (the rented-GPU fast
 * lane), which tests cannot reach offline. It answers
 * `POST /v1/audio/transcriptions` as OpenAI documents `verbose_json` with word
 * timestamps, speaking `text` evenly over the first seconds of the clip.
 */
export interface SpeechApi {
  endpoint: string;
  url: string;
  /** Transcription requests received. */
  calls(): number;
  /** `ok` answers; `fail` answers 500 as an overloaded server does. */
  mode: 'ok' | 'fail';
  /** Holds answers until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

export async function startSpeechApi(text: string): Promise<SpeechApi> {
  let calls = 0;
  let gate: Promise<void> = Promise.resolve();
  const words = text.split(/\s+/).map((w, i) => ({ word: w.replace(/[.,]/g, ''), start: i * 0.3, end: i * 0.3 + 0.25 }));
  const api: SpeechApi & { server?: LocalServer } = {
    endpoint: '',
    url: '',
    mode: 'ok',
    calls: () => calls,
    hold() {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return release;
    },
    close: () => api.server!.close(),
  };
  api.server = await startLocalServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
      res.writeHead(404).end();
      return;
    }
    calls += 1;
    req.resume();
    req.on('end', () => {
      void gate.then(() => {
        if (api.mode === 'fail') {
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'GPU out of memory' } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ task: 'transcribe', language: 'english', duration: 10, text, words }));
      });
    });
  });
  api.endpoint = api.server.endpoint;
  api.url = api.server.url('/');
  return api;
}
