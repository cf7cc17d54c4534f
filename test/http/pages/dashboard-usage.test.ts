import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../../src/config/config.ts';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  type Dashboard,
  expectCleanMarkup,
  expectHtml,
  expectPage,
  setupDashboard,
} from './dashboard-fixture.ts';

interface ChartData {
  x: number[];
  series: { label: string; values: number[] }[];
}

/** The data block a chart is drawn from, as pages.js reads it. */
function chartData(html: string, id: string): ChartData {
  const m = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html);
  expect(m, `a data block #${id}`).not.toBeNull();
  return JSON.parse(m![1]!) as ChartData;
}

const sum = (c: ChartData, label: RegExp): number =>
  c.series.filter((s) => label.test(s.label)).reduce((n, s) => n + s.values.reduce((a, b) => a + b, 0), 0);

/** Variant B's limit for enterprise is lowered to 5 so a test reaches it (Variant A keeps 10,000). */
const LIMITS = { hourly: DEFAULTS.limits.hourly, daily: { ...DEFAULTS.limits.daily, enterprise: 5 } };

describe.each(DIALECTS)('dashboard: usage (%s)', (dialect) => {
  let d: Dashboard;
  let first: { key: string; id: string };
  let second: { key: string; id: string };

  const call = async (key: string, url: string) =>
    (await d.ctx.app.inject({ url, headers: bearer(key) })).statusCode;

  beforeAll(async () => {
    d = await setupDashboard(dialect, { config: { limits: LIMITS } });
    const acme = await d.accountId('acme');
    const a = await d.ctx.container.accountKeys.create(acme, 'first');
    const b = await d.ctx.container.accountKeys.create(acme, 'second');
    first = { key: a.key, id: a.info.id };
    second = { key: b.key, id: b.info.id };
    // first: 2 on A, 5 on B (its limit), then 2 refused; second: 1 on B.
    for (let i = 0; i < 2; i++) expect(await call(first.key, '/v1/vendors')).toBe(200);
    for (let i = 0; i < 5; i++) expect(await call(first.key, '/api/v1/vendors')).toBe(200);
    for (let i = 0; i < 2; i++) expect(await call(first.key, '/api/v1/vendors')).toBe(429);
    expect(await call(second.key, '/api/v1/vendors')).toBe(200);
  });
  afterAll(async () => d?.close());

  const check = (html: string) => {
    // Now: B's rolling 24 h and A's UTC hour, against their limits.
    expect(html).toMatch(
      /first \(prk_live_\w+…\)<\/td>\s*<td>Variant B \(\/api\/v1\)<\/td>\s*<td class="num">\s*5 \/ 5<br>/,
    );
    expect(html).toMatch(
      /first \(prk_live_\w+…\)<\/td>\s*<td>Variant A \(\/v1\)<\/td>\s*<td class="num">\s*2 \/ 10,000<br>/,
    );
    expect(html).toContain('<progress value="5" max="5"');
    const resets = new Date(Math.ceil((d.ctx.clock.now() + 1) / 3_600_000) * 3_600_000).toISOString();
    expect(html).toContain(`this UTC hour, resets at ${resets.slice(0, 16).replace('T', ' ')} UTC`);
    expect(html).toContain('rolling 24 hours');
    const week = chartData(html, 'week-data');
    expect(week.x.length).toBe(168);
    expect(week.series.map((s) => s.label)).toEqual([
      'Variant A requests',
      'Variant B requests',
      'Refused (429)',
    ]);
    expect(sum(week, /Variant A/)).toBe(2);
    expect(sum(week, /Variant B/)).toBe(6);
    expect(sum(week, /429/)).toBe(2);
    // The last hour is this hour: everything fell into it.
    expect(week.x.at(-1)).toBe(Math.floor(d.ctx.clock.now() / 3_600_000) * 3600);
    const quarter = chartData(html, 'quarter-data');
    expect(quarter.x.length).toBe(90);
    expect(sum(quarter, /Variant B/)).toBe(6);
    // The charts' text alternative.
    expect(html).toContain('2 requests on Variant A, 6 on Variant B, 2 refused with 429.');
    expect(html).toMatch(/role="img" aria-labelledby="week-summary"/);
  };

  it('shows each key against its limits and the charts of the last 7 and 90 days, 429s apart', async () => {
    const html = expectPage(await d.p.get('/dashboard/usage', d.owner));
    expectCleanMarkup(html);
    check(html);
  });

  it('shows the same after the counts are flushed to the store (nothing counted twice)', async () => {
    await d.ctx.container.usageMeter.flush();
    check(expectPage(await d.p.get('/dashboard/usage', d.member)));
  });

  it('?key= narrows to one key', async () => {
    const html = expectPage(await d.p.get(`/dashboard/usage?key=${second.id}`, d.owner));
    const week = chartData(html, 'week-data');
    expect(sum(week, /Variant B/)).toBe(1);
    expect(sum(week, /Variant A/)).toBe(0);
    expect(sum(week, /429/)).toBe(0);
    expect(html).not.toContain('5 / 5');
    expect(html).toContain(`<option value="${second.id}" selected>`);
  });

  it("another account's key, or no key at all, is 404", async () => {
    const theirs = await d.ctx.container.accountKeys.create(await d.accountId('other'), 'theirs');
    expectHtml(await d.p.get(`/dashboard/usage?key=${theirs.info.id}`, d.owner), 404);
    expectHtml(await d.p.get('/dashboard/usage?key=key_nope', d.owner), 404);
    // Theirs shows none of acme's counts.
    const html = expectPage(await d.p.get('/dashboard/usage', d.otherOwner));
    expect(sum(chartData(html, 'week-data'), /Variant/)).toBe(0);
    expect(html).not.toContain('first (');
  });

  it('a free account sees its plan and what the plans include', async () => {
    const html = expectPage(await d.p.get('/dashboard/usage', d.freeOwner));
    expectCleanMarkup(html);
    expect(html).toContain('<strong>free</strong> plan');
    expect(html).toContain('Nothing is counted without API access.');
  });
});
