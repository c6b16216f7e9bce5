import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../src/infra/outbound/outbound-client.js';
import { OutboundError } from '../../src/infra/outbound/outbound-error.js';
import { createLaneEngine } from '../../src/workers/transcription-engines.js';
import { type SpeechApi, startSpeechApi } from './support/speech-api.js';

// A speech server the operator configured (ASR_URL, FAST_ASR_URL) is often on
// a private network. Reaching it must not need OUTBOUND_ALLOW, which would
// also open it to feed, audio, artwork and transcript URLs the public gives.
let speech: SpeechApi;
let dir: string;

beforeAll(async () => {
  speech = await startSpeechApi('hello private world');
  dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-asr-'));
});
afterAll(async () => {
  await speech?.close();
  await rm(dir, { recursive: true, force: true });
});

/** One second of silence, 16 kHz mono 16-bit. */
function silentWav(): Buffer {
  const data = Buffer.alloc(32_000);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

describe('a speech server on a private address', () => {
  it('is reached by its lane without OUTBOUND_ALLOW, and stays closed to every other request', async () => {
    const outbound = createOutboundClient();
    const wav = path.join(dir, 'chunk.wav');
    await writeFile(wav, silentWav());
    const engine = createLaneEngine({ engine: 'openai', url: speech.url, model: 'whisper-1' }, outbound);

    const result = await engine.transcribe(wav, { language: 'en' });
    expect(result.words.map((w) => w.w).join(' ')).toContain('private');
    expect(speech.calls()).toBe(1);

    const refused = await outbound.request(speech.url).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OutboundError);
    expect((refused as OutboundError).code).toBe('blocked_address');
  });
});
