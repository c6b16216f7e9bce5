import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORT_PASSAGE } from '../../../test/audio/passages.js';
import { speak } from '../../../test/audio/speak.js';
import { AudioError } from './audio-error.js';
import { id3TagLength } from './container-sniff.js';
import { decodeToPcm } from './decode-to-pcm.js';
import { probeDuration } from './probe-duration.js';
import { readWavInfo } from './wav-file.js';

const run = promisify(execFile);

let dir: string;
let mp3: string;
// A server that would hand out audio to anyone who asked: the bad inputs point at it.
let server: Server;
let requests = 0;
let bait: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'decode-'));
  mp3 = join(dir, 'speech.mp3');
  await speak(SHORT_PASSAGE, mp3, { format: 'mp3' });
  const audio = await readFile(mp3);
  server = createServer((_req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(audio);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  bait = `http://127.0.0.1:${(server.address() as AddressInfo).port}/episode.mp3`;
});

afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  await rm(dir, { recursive: true, force: true });
});

async function failure(input: string, opts = {}): Promise<AudioError> {
  const error = await decodeToPcm(input, join(dir, 'out.wav'), opts).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(AudioError);
  return error as AudioError;
}

describe('decodeToPcm', () => {
  it('decodes an MP3 to 16 kHz mono 16-bit WAV of the same length', async () => {
    const out = join(dir, 'speech.wav');
    const { durationSeconds } = await decodeToPcm(mp3, out);
    const info = await readWavInfo(out);
    expect(info).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16, dataOffset: 44 });
    expect(info.durationSeconds).toBeCloseTo(durationSeconds, 6);
    expect(durationSeconds).toBeGreaterThan(7);
    // MP3 encoder delay and padding account for the difference.
    expect(Math.abs(durationSeconds - (await probeDuration(mp3)))).toBeLessThan(0.2);
  });

  it.each([
    ['m4a', ['-c:a', 'aac', '-f', 'mp4']],
    ['ogg', ['-c:a', 'libopus', '-f', 'ogg']],
    ['flac', ['-c:a', 'flac', '-f', 'flac']],
    ['webm', ['-c:a', 'libopus', '-f', 'webm']],
    ['aac', ['-c:a', 'aac', '-f', 'adts']],
    ['wav', ['-ar', '44100', '-ac', '2', '-c:a', 'pcm_s16le', '-f', 'wav']],
  ])('decodes %s podcasts as well', async (ext, codec) => {
    const input = join(dir, `speech.${ext}`);
    await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', mp3, ...codec, input]);
    const { durationSeconds } = await decodeToPcm(input, join(dir, `from-${ext}.wav`));
    // Encoder delay and padding (MP3, then AAC/Opus) account for the difference.
    expect(Math.abs(durationSeconds - (await probeDuration(mp3)))).toBeLessThan(0.25);
  });

  it('decodes an MP3 that starts inside a frame, as a file cut out of a stream does', async () => {
    const whole = await readFile(mp3);
    const cut = join(dir, 'cut.mp3');
    await writeFile(cut, whole.subarray(id3TagLength(whole) + 100));
    const { durationSeconds } = await decodeToPcm(cut, join(dir, 'from-cut.wav'));
    expect(Math.abs(durationSeconds - (await probeDuration(mp3)))).toBeLessThan(0.2);
  });

  it('refuses a recording over maxSeconds and leaves no output behind', async () => {
    const error = await failure(mp3, { maxSeconds: 3 });
    expect(error.code).toBe('too_long');
    expect((await readdir(dir)).filter((f) => f.startsWith('out.wav'))).toEqual([]);
  });

  it('refuses a zero-byte file', async () => {
    const empty = join(dir, 'empty.mp3');
    await writeFile(empty, '');
    expect((await failure(empty)).code).toBe('not_audio');
  });

  it('refuses an HTML error page saved as .mp3', async () => {
    const html = join(dir, 'page.mp3');
    await writeFile(html, '<!doctype html><html><body><h1>403 Forbidden</h1></body></html>\n');
    expect((await failure(html)).code).toBe('not_audio');
  });

  it('refuses relative paths, URLs, directories and devices', async () => {
    for (const input of ['speech.mp3', bait, `file://${mp3}`, dir, '/dev/zero']) {
      expect((await failure(input)).code).toBe('not_audio');
    }
    expect(requests).toBe(0);
  });

  describe('playlists read nothing', () => {
    const targets = (): string[] => ['http://169.254.169.254/latest/meta-data/', 'file:///etc/passwd', bait, `file://${mp3}`];

    it('an HLS playlist (.m3u8, and renamed .mp3)', async () => {
      const m3u8 = ['#EXTM3U', '#EXT-X-TARGETDURATION:10', ...targets().flatMap((t) => ['#EXTINF:10,', t]), '#EXT-X-ENDLIST', ''].join('\n');
      for (const name of ['list.m3u8', 'list.mp3']) {
        await writeFile(join(dir, name), m3u8);
        expect((await failure(join(dir, name))).code).toBe('not_audio');
      }
      expect(requests).toBe(0);
    });

    it('an ffconcat script', async () => {
      const script = ['ffconcat version 1.0', ...targets().map((t) => `file '${t}'`), `file '${mp3}'`, ''].join('\n');
      await writeFile(join(dir, 'list.ffconcat'), script);
      expect((await failure(join(dir, 'list.ffconcat'))).code).toBe('not_audio');
      expect(requests).toBe(0);
    });

    it('a playlist hidden behind an ID3 tag, so it sniffs as MP3', async () => {
      const playlist = Buffer.from(['#EXTM3U', '#EXTINF:10,', bait, '#EXTINF:10,', `file://${mp3}`, ''].join('\n'));
      const id3 = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
      const file = join(dir, 'tagged.mp3');
      await writeFile(file, Buffer.concat([id3, playlist]));
      expect((await failure(file)).code).toBe('not_audio');
      expect(requests).toBe(0);
    });
  });

  it('gives up with decode_failed when out of time', async () => {
    const error = await failure(mp3, { timeoutMs: 1 });
    expect(error.code).toBe('decode_failed');
  });
});
