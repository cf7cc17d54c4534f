import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { B, expectError, type Fixture, setupFixture } from './fixtures.ts';

const URL = `${B}/vendors`;

/**
 * Variant B: 1000 requests per key over an exact rolling 24 h. Every test takes fresh keys and
 * positions the shared ManualClock itself (only ever forward).
 */
describe.each(DIALECTS)('rate limit (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const get = (key: string, headers: Record<string, string> = {}) => f.get(URL, headers, key);
  /** n sequential requests; returns the responses. */
  const many = async (n: number, key: string, headers: Record<string, string> = {}) => {
    const out: LightMyRequestResponse[] = [];
    for (let i = 0; i < n; i++) out.push(await get(key, headers));
    return out;
  };
  const statuses = (rs: LightMyRequestResponse[]) => {
    const count: Record<number, number> = {};
    for (const r of rs) count[r.statusCode] = (count[r.statusCode] ?? 0) + 1;
    return count;
  };
  const expect429 = (res: LightMyRequestResponse, retryAfter: number, limit = 1000) => {
    const err = expectError(res, 429, 'rate_limited');
    expect(err.message).toContain(String(limit));
    expect(res.headers['retry-after']).toBe(String(retryAfter));
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  };

  it('the 1001st request in 24 h → 429 with Retry-After until the oldest request leaves the window', async () => {
    const t = f.ctx.clock.now();
    const key = await f.ctx.keyFor('enterprise');
    expect((await get(key)).statusCode).toBe(200); // at t
    f.ctx.clock.set(t + HOUR_MS);
    const rs = await many(999, key); // at t + 1 h
    expect(statuses(rs)).toEqual({ 200: 999 });
    expect(rs.at(-1)!.headers['x-ratelimit-remaining']).toBe('0');
    expect(rs.at(-1)!.headers['x-ratelimit-limit']).toBe('1000');

    const denied = await get(key);
    expect429(denied, 23 * 3600); // the request at t leaves at t + 24 h: 23 h from now
    expect(denied.json().error.message).toMatch(/1000 requests per 24 hours/);

    f.ctx.clock.set(t + DAY_MS - 1);
    expect429(await get(key), 1); // 1 ms left, rounded up to a whole second
    f.ctx.clock.set(t + DAY_MS);
    const admitted = await get(key); // exactly one slot has freed up (the 429s took none)
    expect(admitted.statusCode).toBe(200);
    expect(admitted.headers['x-ratelimit-remaining']).toBe('0');
    expect429(await get(key), 3600); // next to leave: the 999 from t + 1 h
  });

  it('304s are not counted: 1000 conditional 304s, then 1000 200s all succeed', async () => {
    const etag = (await get(await f.ctx.keyFor('enterprise'))).headers.etag as string;
    const key = await f.ctx.keyFor('enterprise');
    const cond = await many(1000, key, { 'if-none-match': etag });
    expect(statuses(cond)).toEqual({ 304: 1000 });
    expect(cond.at(-1)!.headers['x-ratelimit-remaining']).toBe('1000');
    const rs = await many(1000, key);
    expect(statuses(rs)).toEqual({ 200: 1000 });
    expect(rs.at(-1)!.headers['x-ratelimit-remaining']).toBe('0');
    expect((await get(key)).statusCode).toBe(429);
  });

  it('429s are not counted (custom plan, limit 20)', async () => {
    const t = f.ctx.clock.now();
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitB: 20 });
    expect(statuses(await many(20, key))).toEqual({ 200: 20 });
    f.ctx.clock.set(t + HOUR_MS);
    for (let i = 0; i < 5; i++) expect429(await get(key), 23 * 3600, 20);
    // At t + 24 h the 20 from t have left; had the 429s at t + 1 h counted, fewer than 20 would fit.
    f.ctx.clock.set(t + DAY_MS);
    const rs = await many(20, key);
    expect(statuses(rs)).toEqual({ 200: 20 });
    expect(rs.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(
      Array.from({ length: 20 }, (_, i) => String(19 - i)),
    );
    expect429(await get(key), 24 * 3600, 20);
  });

  it('each key has its own quota, even within one account', async () => {
    const account = `rl-separate-${dialect}`;
    const a1 = await f.ctx.keyFor('custom', account, { rateLimitB: 20 });
    const a2 = await f.ctx.keyFor('custom', account);
    const other = await f.ctx.keyFor('custom', undefined, { rateLimitB: 20 });
    expect(statuses(await many(21, a1))).toEqual({ 200: 20, 429: 1 });
    const r2 = await get(a2);
    expect(r2.statusCode).toBe(200);
    expect(r2.headers['x-ratelimit-remaining']).toBe('19');
    const r3 = await get(other);
    expect(r3.statusCode).toBe(200);
    expect(r3.headers['x-ratelimit-remaining']).toBe('19');
    expect((await get(a1)).statusCode).toBe(429);
  });

  it('concurrent requests at the edge: 990 used, 50 at once → exactly 10 admitted', async () => {
    const key = await f.ctx.keyFor('enterprise');
    expect(statuses(await many(990, key))).toEqual({ 200: 990 });
    const rs = await Promise.all(Array.from({ length: 50 }, () => get(key)));
    expect(statuses(rs)).toEqual({ 200: 10, 429: 40 });
    const remaining = rs
      .filter((r) => r.statusCode === 200)
      .map((r) => Number(r.headers['x-ratelimit-remaining']));
    expect(remaining.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('401 and 403 answers use no quota', async () => {
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitB: 3 });
    await f.ctx.app.inject({ url: URL, headers: { authorization: 'Bearer prk_live_bad' } });
    expect(statuses(await many(3, key))).toEqual({ 200: 3 });
    expect((await get(key)).statusCode).toBe(429);
  });
});
