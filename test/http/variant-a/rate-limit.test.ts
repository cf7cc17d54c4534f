import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { A, expectError, type Fixture, hourEndS, setupFixture, T0 } from './fixtures.ts';

const MIN_MS = 60_000;
const URL = `${A}/peptides`;
const B_URL = '/api/v1/vendors';

/**
 * Variant A: fixed windows aligned to the UTC hour, per key, counted apart from Variant B.
 * T0 is 12:00:00.000Z. Tests run in order and only ever move the shared clock forward; each takes
 * fresh keys.
 */
describe.each(DIALECTS)('Variant A rate limit (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const at = (ms: number) => {
    expect(ms).toBeGreaterThanOrEqual(f.ctx.clock.now());
    f.ctx.clock.set(ms);
  };
  const get = (key: string, url = URL, headers: Record<string, string> = {}) => f.get(url, headers, key);
  const many = async (n: number, key: string, url = URL) => {
    const out: LightMyRequestResponse[] = [];
    for (let i = 0; i < n; i++) out.push(await get(key, url));
    return out;
  };
  const statuses = (rs: LightMyRequestResponse[]) => {
    const count: Record<number, number> = {};
    for (const r of rs) count[r.statusCode] = (count[r.statusCode] ?? 0) + 1;
    return count;
  };
  const headers = (r: LightMyRequestResponse) => ({
    limit: r.headers['x-ratelimit-limit'],
    remaining: r.headers['x-ratelimit-remaining'],
    reset: r.headers['x-ratelimit-reset'],
  });
  const expect429 = (r: LightMyRequestResponse, retryAfter: number, limit: number, resetS: number) => {
    const err = expectError(r, 429, 'rate_limited');
    expect(err.message).toContain(String(limit));
    expect(r.headers['retry-after']).toBe(String(retryAfter));
    expect(headers(r)).toEqual({ limit: String(limit), remaining: '0', reset: String(resetS) });
  };

  it('a 200 carries Limit 10000, Remaining 9999 and Reset = the end of the UTC hour in Unix seconds', async () => {
    at(T0 + 25 * MIN_MS + 500); // 12:25:00.500 → the window ends at 13:00:00
    const key = await f.ctx.keyFor('enterprise');
    const r = await get(key);
    expect(r.statusCode).toBe(200);
    expect(headers(r)).toEqual({ limit: '10000', remaining: '9999', reset: String((T0 + HOUR_MS) / 1000) });
    expect(hourEndS(T0 + 25 * MIN_MS)).toBe((T0 + HOUR_MS) / 1000);
  });

  it('404 and 400 answers carry the headers too, and are counted', async () => {
    at(T0 + 30 * MIN_MS);
    const key = await f.ctx.keyFor('enterprise');
    const reset = String((T0 + HOUR_MS) / 1000);
    const answers = [
      [await get(key, `${A}/vendors/nope`), 404, '9999'],
      [await get(key, `${A}/vendors?page=0`), 400, '9998'],
      [await get(key, `${A}/peptides/nope/vendors`), 404, '9997'],
      [await get(key, `${A}/search?q=`), 400, '9996'],
      [await get(key), 200, '9995'],
    ] as const;
    for (const [r, status, remaining] of answers) {
      expect(r.statusCode, r.body).toBe(status);
      expect(headers(r)).toEqual({ limit: '10000', remaining, reset });
    }
  });

  it('an unknown /v1 route answered to a valid key carries the headers too', async () => {
    at(T0 + 35 * MIN_MS);
    const key = await f.ctx.keyFor('enterprise');
    const r = await get(key, `${A}/nope`);
    expectError(r, 404, 'not_found');
    // Counted (9999) or merely reported (10000): either way the caller learns where it stands.
    expect(headers(r)).toMatchObject({ limit: '10000', reset: String((T0 + HOUR_MS) / 1000) });
    expect(['9999', '10000']).toContain(r.headers['x-ratelimit-remaining']);
  });

  it('10,000 requests in an hour pass; the 10,001st → 429 with Retry-After to the next hour; the hour resets it', async () => {
    const hour = T0 + 2 * HOUR_MS; // 14:00
    at(hour + 10 * MIN_MS);
    const key = await f.ctx.keyFor('enterprise');
    const remaining: number[] = [];
    for (let sent = 0; sent < 10_000; sent += 500) {
      const rs = await Promise.all(Array.from({ length: 500 }, () => get(key)));
      for (const r of rs) {
        expect(r.statusCode).toBe(200);
        remaining.push(Number(r.headers['x-ratelimit-remaining']));
      }
    }
    // Each admitted request saw a distinct count: 9999 down to 0.
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 10_000 }, (_, i) => i));

    at(hour + 10 * MIN_MS + 250); // 14:10:00.250: 49 min 59.75 s left → 3000 s (rounded up)
    expect429(await get(key), 3000, 10_000, (hour + HOUR_MS) / 1000);
    // A 429 also blocks other endpoints of A for that key.
    expect429(await get(key, `${A}/vendors`), 3000, 10_000, (hour + HOUR_MS) / 1000);

    at(hour + HOUR_MS - 1); // 14:59:59.999
    expect429(await get(key), 1, 10_000, (hour + HOUR_MS) / 1000);

    at(hour + HOUR_MS); // 15:00:00.000: a new window
    const next = await get(key);
    expect(next.statusCode).toBe(200);
    expect(headers(next)).toEqual({
      limit: '10000',
      remaining: '9999',
      reset: String((hour + 2 * HOUR_MS) / 1000),
    });
  });

  it('windows are aligned to the UTC hour, not to the first request (custom rateLimitA 5)', async () => {
    const hour = T0 + 4 * HOUR_MS; // 16:00
    at(hour + 59 * MIN_MS); // 16:59:00
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitA: 5 });
    const rs = await many(5, key);
    expect(rs.map((r) => `${r.statusCode}:${r.headers['x-ratelimit-remaining']}`)).toEqual([
      '200:4',
      '200:3',
      '200:2',
      '200:1',
      '200:0',
    ]);
    expect(rs[0]!.headers['x-ratelimit-limit']).toBe('5');
    expect429(await get(key), 60, 5, (hour + HOUR_MS) / 1000);
    // 17:00:00: a rolling hour would still block until 17:59; the fixed window has reset.
    at(hour + HOUR_MS);
    const r = await get(key);
    expect(r.statusCode).toBe(200);
    expect(headers(r)).toEqual({ limit: '5', remaining: '4', reset: String((hour + 2 * HOUR_MS) / 1000) });
  });

  it('a custom account without rateLimitA gets the custom plan limit; pro gets 1000', async () => {
    at(T0 + 5 * HOUR_MS);
    const custom = await get(await f.ctx.keyFor('custom'));
    expect(headers(custom)).toMatchObject({ limit: '100000', remaining: '99999' });
    const pro = await get(await f.ctx.keyFor('pro'));
    expect(pro.statusCode).toBe(200);
    expect(headers(pro)).toMatchObject({ limit: '1000', remaining: '999' });
  });

  it('a custom rateLimitB does not change the Variant A limit, and vice versa', async () => {
    at(T0 + 5 * HOUR_MS + MIN_MS);
    const onlyB = await f.ctx.keyFor('custom', undefined, { rateLimitB: 7 });
    expect(headers(await get(onlyB))).toMatchObject({ limit: '100000' });
    const onlyA = await f.ctx.keyFor('custom', undefined, { rateLimitA: 7 });
    expect(headers(await get(onlyA))).toMatchObject({ limit: '7', remaining: '6' });
    const b = await get(onlyA, B_URL);
    expect(b.statusCode).toBe(200);
    expect(b.headers['x-ratelimit-limit']).toBe('100000');
  });

  it("Variant B's quota is counted apart: /api/v1 does not consume /v1's and vice versa", async () => {
    const hour = T0 + 6 * HOUR_MS;
    at(hour + MIN_MS);
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitA: 5, rateLimitB: 3 });
    // Three B requests use up B's quota only.
    expect(statuses(await many(3, key, B_URL))).toEqual({ 200: 3 });
    expectError(await get(key, B_URL), 429, 'rate_limited');
    const a1 = await get(key);
    expect(a1.statusCode).toBe(200);
    expect(a1.headers['x-ratelimit-remaining']).toBe('4');
    // Use up A; B is still refused for its own reason, and A's 429 names A's limit.
    expect(statuses(await many(4, key))).toEqual({ 200: 4 });
    expect429(await get(key), 59 * 60, 5, (hour + HOUR_MS) / 1000);
    // Next hour: A has reset, B (rolling 24 h) has not.
    at(hour + HOUR_MS);
    expect((await get(key)).statusCode).toBe(200);
    expectError(await get(key, B_URL), 429, 'rate_limited');
  });

  it('an enterprise key: B requests leave A at 10000, A requests leave B at 1000', async () => {
    at(T0 + 7 * HOUR_MS);
    const key = await f.ctx.keyFor('enterprise');
    expect(statuses(await many(3, key, B_URL))).toEqual({ 200: 3 });
    const a = await get(key);
    expect(a.headers['x-ratelimit-remaining']).toBe('9999');
    await many(4, key);
    const b = await get(key, B_URL);
    expect(b.statusCode).toBe(200);
    expect(b.headers['x-ratelimit-limit']).toBe('1000');
    expect(b.headers['x-ratelimit-remaining']).toBe('996');
  });

  it('304s are not counted: with a limit of 5, ten 304s then four 200s all pass', async () => {
    const hour = T0 + 8 * HOUR_MS;
    at(hour + MIN_MS);
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitA: 5 });
    const first = await get(key);
    expect(first.headers['x-ratelimit-remaining']).toBe('4');
    const etag = first.headers.etag as string;
    for (let i = 0; i < 10; i++) {
      const cond = await get(key, URL, { 'if-none-match': etag });
      expect(cond.statusCode).toBe(304);
      // The 304 reports the remaining count after its hit was refunded: unchanged.
      expect(headers(cond)).toEqual({ limit: '5', remaining: '4', reset: String((hour + HOUR_MS) / 1000) });
    }
    const rs = await many(4, key);
    expect(rs.map((r) => `${r.statusCode}:${r.headers['x-ratelimit-remaining']}`)).toEqual([
      '200:3',
      '200:2',
      '200:1',
      '200:0',
    ]);
    expect429(await get(key), 59 * 60, 5, (hour + HOUR_MS) / 1000);
    // Once over the limit, a conditional request is refused too (it cannot be served without counting).
    expect((await get(key, URL, { 'if-none-match': etag })).statusCode).toBe(429);
  });

  it('each key has its own quota, even within one account', async () => {
    at(T0 + 9 * HOUR_MS);
    const account = `rl-a-separate-${dialect}`;
    const k1 = await f.ctx.keyFor('custom', account, { rateLimitA: 2 });
    const k2 = await f.ctx.keyFor('custom', account);
    expect(statuses(await many(3, k1))).toEqual({ 200: 2, 429: 1 });
    const r = await get(k2);
    expect(r.statusCode).toBe(200);
    expect(headers(r)).toMatchObject({ limit: '2', remaining: '1' });
  });

  it('401 answers use no quota and carry no rate-limit headers', async () => {
    at(T0 + 10 * HOUR_MS);
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitA: 2 });
    const bad = await f.ctx.app.inject({ url: URL, headers: { authorization: 'Bearer prk_live_bad' } });
    expectError(bad, 401, 'invalid_api_key');
    expect(bad.headers['x-ratelimit-limit']).toBeUndefined();
    expect(statuses(await many(2, key))).toEqual({ 200: 2 });
  });
});
