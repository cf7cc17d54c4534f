import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { lookAtPage } from './in-page.ts';

/** Where the screenshots go (test-results/ is ignored by git). */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../../test-results/screenshots');

/** A desktop and a phone. */
export const WIDTHS = [1280, 390] as const;

/**
 * Writes full-page screenshots of the page at each width to `<name>-<width>.png`, and returns what
 * a look would catch that a test can check: a page wider than the screen (something overflows at
 * 390 px, outside any scrolling box) and a page without its stylesheet. With `write: false` only
 * the checks run. The viewport is left at 1280 px.
 */
export async function screenshots(
  page: Page,
  name: string,
  opts: { write?: boolean } = {},
): Promise<string[]> {
  const write = opts.write ?? true;
  if (write) mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    // The charts redraw 200 ms after a resize (assets/pages.js).
    await page.waitForTimeout(300);
    const look = await page.evaluate(lookAtPage);
    if (!look.styled) problems.push(`${name}: pages.css is not applied`);
    if (look.wide > look.vw) {
      problems.push(
        `${name} at ${width} px: ${look.wide} px wide, wider than the screen (${look.culprits.join('; ')})`,
      );
    }
    if (write) await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  return problems;
}
