import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signInWith } from '../support/browser.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

/** WCAG's contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = c.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

// Someone using only the keyboard follows the focus ring from control to control.
describe('the focus ring', () => {
  let t: TestPodtext;
  let browser: Browser;
  let site: string;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestPodtext({ env: { WORKERS: '0' } }), launchBrowser()]);
    site = await t.podtext.listen();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Tabs through the page: each focused control's ring colour and the colour behind it. */
  async function rings(page: Page, steps: number) {
    const out: { what: string; ring: string; behind: string }[] = [];
    for (let i = 0; i < steps; i++) {
      await page.keyboard.press('Tab');
      out.push(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          // The ring is drawn outside the control (outline-offset), over what its parent shows.
          let under: HTMLElement | null = el.parentElement;
          let behind = 'rgb(255, 255, 255)';
          for (; under; under = under.parentElement) {
            const bg = getComputedStyle(under).backgroundColor;
            if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') {
              behind = bg;
              break;
            }
          }
          return { what: `${el.tagName} ${(el.textContent ?? '').trim().slice(0, 30)}`, ring: getComputedStyle(el).outlineColor, behind };
        }),
      );
    }
    return out;
  }

  it('stands out at 3:1 or more from what is around it, on the page and in the dark header (WCAG 1.4.11)', async () => {
    const a = await t.account({ credits: 1 });
    const context = await browser.newContext({ baseURL: site });
    try {
      const page = await context.newPage();
      await signInWith(page, a.key);
      const seen = [...(await rings(page, 12))];
      await page.goto('/');
      seen.push(...(await rings(page, 10)));
      expect(seen.some((s) => s.what.startsWith('BUTTON Rotate my key'))).toBe(true);
      const faint = seen.filter((s) => contrast(s.ring, s.behind) < 3).map((s) => `${s.what}: ${s.ring} on ${s.behind} (${contrast(s.ring, s.behind).toFixed(2)}:1)`);
      expect(faint).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
