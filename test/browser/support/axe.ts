import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runAxe } from './in-page.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What axe-core must not find on any page. */
const BLOCKING = new Set(['serious', 'critical']);

/**
 * A context for axe-core: the pages' CSP forbids the script tag axe is injected with, so this one
 * context bypasses it (only here; CSP is asserted in the users' contexts, browser.ts).
 */
export function axeContext(
  browser: Browser,
  storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
): Promise<BrowserContext> {
  return browser.newContext({
    bypassCSP: true,
    viewport: { width: 1280, height: 900 },
    ...(storageState ? { storageState } : {}),
  });
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules and best practices) on the page as it is now, and returns
 * one line per serious or critical violation: the rule, what it means, and where.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(runAxe);
  return violations
    .filter((v) => v.impact !== null && BLOCKING.has(v.impact))
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.targets.join(', ')}`);
}
