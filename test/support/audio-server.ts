import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface AudioServer {
  /** The spoken file's URL (WAV, with byte ranges so a player can seek). */
  url: string;
  close(): Promise<void>;
}

/** Real speech made by flite, served from loopback as a podcast host would serve an episode. */
export async function startAudioServer(text: string): Promise<AudioServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-audio-'));
  const file = path.join(dir, 'episode.wav');
  execFileSync('flite', ['-t', text, '-o', file]);
  const body = readFileSync(file);
  const server = createServer((req, res) => {
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const headers = { 'content-type': 'audio/wav', 'accept-ranges': 'bytes' };
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
      res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${body.length}`, 'content-length': end - start + 1 });
      res.end(body.subarray(start, end + 1));
    } else {
      res.writeHead(200, { ...headers, 'content-length': body.length });
      res.end(body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/episode.wav`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
