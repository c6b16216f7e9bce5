import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { findUp } from '../infra/find-up.js';
import type { RestEnv } from '../rest/env.js';

/** Where the public sample's audio is served: its episode's `audio_url` is `{site_url}` + this. */
export const SAMPLE_AUDIO_PATH = '/sample/audio.mp3';

let audio: Buffer | undefined;
/** The five LibriVox clips back to back (src/core/transcripts/sample/README.md), read once. */
function sampleAudio(): Buffer {
  audio ??= readFileSync(findUp('src/core/transcripts/sample/sample-audio.mp3', fileURLToPath(import.meta.url)));
  return audio;
}

/** One `bytes=a-b` range of `size` bytes, null for none or an unusable one (answered whole). */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * The sample's audio, so the one episode every visitor can open plays with
 * its transcript. Byte ranges are honoured: browsers seek in audio by them.
 */
export function registerSampleAudioRoute(app: Hono<RestEnv>): void {
  app.get(SAMPLE_AUDIO_PATH, (c) => {
    const body = sampleAudio();
    const headers = { 'content-type': 'audio/mpeg', 'accept-ranges': 'bytes', 'cache-control': 'public, max-age=86400' };
    const range = byteRange(c.req.header('range'), body.length);
    if (range === 'unsatisfiable') return c.body(null, 416, { ...headers, 'content-range': `bytes */${body.length}` });
    if (!range) return c.body(new Uint8Array(body), 200, headers);
    const part = body.subarray(range.start, range.end + 1);
    return c.body(new Uint8Array(part), 206, { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${body.length}` });
  });
}
