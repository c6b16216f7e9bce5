import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';

// Tests that need Chromium fail when it is missing: a skipped browser test
// would pass CI on an image without the browser.
const testRoot = fileURLToPath(new URL('..', import.meta.url));

async function testFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await testFiles(p)));
    else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

describe('the browser rule', () => {
  it('launching a missing browser fails with an error saying what to install', async () => {
    await expect(launchBrowser('/nonexistent/chromium')).rejects.toThrow(/Chromium is required .* missing at \/nonexistent\/chromium.*"chromium"/);
  });

  it('no browser test skips itself when the browser is absent', async () => {
    const users: string[] = [];
    for (const file of await testFiles(testRoot)) {
      const text = await readFile(file, 'utf8');
      if (!text.includes('support/browser.js') || file === fileURLToPath(import.meta.url)) continue;
      users.push(path.relative(testRoot, file));
      expect({ file, conditional: /\.(skipIf|runIf)\([^)]*(chrom|browser)/i.test(text) }).toEqual({ file, conditional: false });
    }
    expect(users.length).toBeGreaterThan(0);
  });
});
