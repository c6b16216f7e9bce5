// Takes the README's screenshots of the website: a Podtext on a fresh in-memory
// database with one show, a signed-in account and a transcript, in Chromium.
// Run: npx tsx scripts/site-screenshots.ts  (writes docs/screenshots/*.png)
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { boot } from '../src/boot.js';
import { loadConfig } from '../src/config.js';
import * as ledger from '../src/core/ledger.js';
import { inTransaction } from '../src/core/transaction.js';
import { startLocalServer } from '../src/infra/outbound/local-test-server.js';
import { launchBrowser } from '../test/support/browser.js';
import { addEpisode, sampleDoc } from '../test/support/catalog.js';
import type { TestPodtext } from '../test/support/podtext.js';

const out = new URL('../docs/screenshots/', import.meta.url).pathname;
await mkdir(out, { recursive: true });
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-shots-'));
// The show's artwork, drawn by ffmpeg and served by a stand-in publisher on loopback.
const coverFile = path.join(dataDir, 'cover.png');
const title = (text: string, size: number, color: string, y: number) => `drawtext=text='${text}':fontsize=${size}:fontcolor=${color}:x=(w-text_w)/2:y=${y}`;
execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i',
  ['color=c=0x23267f:s=600x600', 'drawbox=x=40:y=40:w=520:h=520:color=0x3b3fd8:t=fill', title('The', 90, '0xffe27a', 150), title('Clickable', 110, 'white', 260), title('Podcast', 110, '0xffe27a', 390)].join(','),
  '-frames:v', '1', coverFile]);
const cover = await readFile(coverFile);
const publisher = await startLocalServer((_req, res) => void res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(cover.length) }).end(cover));
const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', SITE_URL: 'http://localhost', LOG_LEVEL: 'silent', SECRET_KEY: 'screenshot-secret-key-that-is-long-enough-0123', APPLE_CHARTS_URL: 'off', WORKERS: '0', OUTBOUND_ALLOW: publisher.endpoint });
const podtext = await boot(config, { inMemory: true });
const t = { podtext } as TestPodtext;
const site = await podtext.listen();
const { db, keys, clock } = podtext.services;
const browser = await launchBrowser();
try {
  const accountId = randomUUID();
  const key = await inTransaction(db, async (tx) => {
    await tx.account.create({ data: { id: accountId, email: 'reader@example.com', plan: 'free', credits: 0, cycleStartedAt: clock.now() } });
    const k = await keys.issue(tx, accountId);
    await ledger.grant(tx, accountId, 12, `screenshot:${accountId}`, 'Welcome credits');
    return k;
  });
  const doc = sampleDoc();
  doc.segments.push(
    { start: 5, end: 9, text: 'Today we talk about transcripts you can click.', speaker: 'Ada', words: 'Today we talk about transcripts you can click.'.split(' ').map((w, i) => ({ w, s: 5 + i * 0.5 })) },
    { start: 9, end: 13, text: 'Every word knows when it was spoken.', speaker: 'Bob', words: 'Every word knows when it was spoken.'.split(' ').map((w, i) => ({ w, s: 9 + i * 0.5 })) },
  );
  const ep = await addEpisode(t, { doc, title: 'Words that know their time' });
  await addEpisode(t, { title: 'An episode nobody has transcribed yet' });
  await t.podtext.services.db.show.update({ where: { id: ep.feedId }, data: { title: 'The Clickable Podcast', artwork: publisher.url('/cover.png'), description: 'Two hosts, one microphone, every word on the page.', categories: ['Technology'], language: 'en' } });
  await podtext.services.transcripts.unlock(await keys.authenticate(key), ep.transcriptId);
  const context = await browser.newContext({ baseURL: site, viewport: { width: 1100, height: 760 } });
  const page = await context.newPage();
  await page.goto('/signin');
  await page.fill('#key', key);
  await page.click('#signin button');
  await page.waitForURL('**/account');
  const shots: [string, string][] = [
    ['home', '/'],
    ['show', `/shows/${ep.feedId}`],
    ['episode', `/t/${ep.transcriptId}#t=9`],
    ['account', '/account'],
    ['docs', '/docs'],
  ];
  for (const [name, path] of shots) {
    await page.goto(path);
    if (name === 'docs') await page.waitForSelector('.swagger-ui .opblock-tag');
    await page.screenshot({ path: `${out}${name}.png` });
    console.log(`${out}${name}.png`);
  }
} finally {
  await browser.close();
  await podtext.stop();
  await publisher.close();
  await rm(dataDir, { recursive: true, force: true });
}
