import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedParseError } from './feed-parse-error.js';
import { parseFeed } from './parse-feed.js';
import { createFeedXmlParser } from './xml-tree.js';

const LIMIT_MS = 100;
const LIMIT_MB = 50;

const ITEM = '<item><title>t</title><enclosure url="https://example.com/a.mp3" type="audio/mpeg"/></item>';

function billionLaughs(): string {
  const entities = ['<!ENTITY lol0 "lol">'];
  for (let level = 1; level <= 9; level++) {
    entities.push(`<!ENTITY lol${level} "${`&lol${level - 1};`.repeat(10)}">`);
  }
  return `<?xml version="1.0"?><!DOCTYPE rss [${entities.join('')}]><rss><channel><title>&lol9;</title>${ITEM}</channel></rss>`;
}

function quadraticBlowup(): string {
  const big = 'A'.repeat(50_000);
  return `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY big "${big}">]><rss><channel><title>${'&big;'.repeat(50_000)}</title>${ITEM}</channel></rss>`;
}

function millionsOfCharacterReferences(): string {
  return `<rss><channel><title>${'&#65;'.repeat(2_000_000)}</title>${ITEM}</channel></rss>`;
}

function externalEntity(target: string): string {
  return `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY x SYSTEM "${target}">]><rss><channel><title>&x;</title>${ITEM}</channel></rss>`;
}

/** CPU milliseconds and wall milliseconds of a synchronous call, and what it threw. */
function measure(run: () => unknown): { cpuMs: number; wallMs: number; error: unknown } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let error: unknown;
  try {
    run();
  } catch (err) {
    error = err;
  }
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started, error };
}

let dir: string;
let server: Server;
let fetched = 0;
let serverUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'podtext-xml-'));
  server = createServer((_req, res) => {
    fetched += 1;
    res.end('<!ENTITY leak "leaked">');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('XML attacks are refused quickly', () => {
  // CPU time is asserted: wall time also counts other processes sharing the machine.
  it.each([
    ['billion laughs', billionLaughs, /DTD entities/],
    ['one big entity used many times', quadraticBlowup, /DTD entities/],
    ['two million numeric character references', millionsOfCharacterReferences, /numeric character references/],
    ['an external entity naming /etc/passwd', () => externalEntity('file:///etc/passwd'), /DTD entities/],
  ])('%s', (name, build, reason) => {
    const doc = build();
    const result = measure(() => parseFeed(doc));
    expect(result.error).toBeInstanceOf(FeedParseError);
    expect((result.error as Error).message).toMatch(reason);
    expect(result.cpuMs).toBeLessThan(LIMIT_MS);
    console.info(`${name}: ${result.cpuMs.toFixed(1)} ms CPU, ${result.wallMs.toFixed(1)} ms wall`);
  });

  it('refuses a parameter entity that would pull a remote DTD, and fetches nothing', () => {
    const doc = `<!DOCTYPE rss [<!ENTITY % remote SYSTEM "${serverUrl}/evil.dtd"> %remote;]><rss><channel>${ITEM}</channel></rss>`;
    expect(() => parseFeed(doc)).toThrow(FeedParseError);
    expect(fetched).toBe(0);
  });

  it('finds entity declarations hidden behind a comment or a quoted literal', () => {
    const doc = `<?xml version="1.0"?><!-- <a> --><!DOCTYPE rss SYSTEM "<b>" [<!ENTITY x "y">]><rss><channel>${ITEM}</channel></rss>`;
    expect(() => parseFeed(doc)).toThrow(/DTD entities/);
  });

  it('lets a DOCTYPE that only names an external DTD through, without fetching it', async () => {
    const doc = `<?xml version="1.0"?><!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "${serverUrl}/rss-0.91.dtd"><rss version="0.91"><channel><title>Old &amp; fine</title>${ITEM}</channel></rss>`;
    const feed = parseFeed(doc);
    expect(feed.show.title).toBe('Old & fine');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetched).toBe(0);
  });

  it('never opens a file an entity names (a FIFO would block a reader forever)', () => {
    const fifo = join(dir, 'never-read');
    execFileSync('mkfifo', [fifo]);
    const result = measure(() => parseFeed(externalEntity(`file://${fifo}`)));
    expect(result.error).toBeInstanceOf(FeedParseError);
    expect(result.cpuMs).toBeLessThan(LIMIT_MS);
  });

  it('leaves DTD entities unexpanded even when the pre-check is bypassed', () => {
    let tree: unknown;
    const result = measure(() => {
      tree = createFeedXmlParser().parse(billionLaughs().replace('&lol9;', '&lol9;&lol8;'));
    });
    expect(result.error).toBeUndefined();
    expect(JSON.stringify(tree)).toContain('&lol9;&lol8;');
    expect(result.cpuMs).toBeLessThan(LIMIT_MS);
  });

  it(`stays within ${LIMIT_MB} MB of heap for all four attacks`, async () => {
    const tsxApi = import.meta.resolve('tsx/esm/api');
    const parseFeedUrl = new URL('./parse-feed.ts', import.meta.url).href;
    // The attacks are built inside the worker so that they count against its heap too.
    const code = `
      const { parentPort } = await import('node:worker_threads');
      (await import(${JSON.stringify(tsxApi)})).register();
      const { parseFeed } = await import(${JSON.stringify(parseFeedUrl)});
      const builders = { ${[billionLaughs, quadraticBlowup, millionsOfCharacterReferences, externalEntity]
        .map((fn) => `${fn.name}: ${fn.toString()}`).join(',')} };
      const ITEM = ${JSON.stringify(ITEM)};
      const outcomes = [];
      for (const [name, build] of Object.entries(builders)) {
        const doc = name === 'externalEntity' ? build('file:///etc/passwd') : build();
        try { parseFeed(doc); outcomes.push([name, 'parsed']); } catch (err) { outcomes.push([name, err.name]); }
      }
      parentPort.postMessage({ outcomes, heapMb: process.memoryUsage().heapUsed / 1e6 });
    `;
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), {
      resourceLimits: { maxOldGenerationSizeMb: LIMIT_MB, maxYoungGenerationSizeMb: 8 },
    });
    const result = await new Promise<{ outcomes: string[][]; heapMb: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(result.outcomes).toEqual([
      ['billionLaughs', 'FeedParseError'],
      ['quadraticBlowup', 'FeedParseError'],
      ['millionsOfCharacterReferences', 'FeedParseError'],
      ['externalEntity', 'FeedParseError'],
    ]);
    expect(result.heapMb).toBeLessThan(LIMIT_MB);
  });
});
