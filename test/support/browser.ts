import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium; never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless Chromium with the background networking a closed machine refuses
 * turned off. A missing browser fails the test that needs it, never skips it:
 * a CI image without Chromium must not pass the website tests silently.
 */
export function launchBrowser(executablePath = CHROMIUM): Promise<Browser> {
  if (!existsSync(executablePath)) {
    return Promise.reject(new Error(`Chromium is required for this test and is missing at ${executablePath}: install the Debian package "chromium" (listed in .ci/run).`));
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Signs a page in with `key` through the sign-in form, as a person does; resolves on the account page. */
export async function signInWith(page: Page, key: string): Promise<void> {
  await page.goto('/signin');
  await page.fill('#key', key);
  await page.click('#signin button');
  await page.waitForURL('**/account');
}
