import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../worker/support.ts';
import type { Cluster } from './support/instances.ts';

/**
 * What several instances on one PostgreSQL database and one Redis must keep, proved with requests
 * spread round-robin across `entry`: the instances themselves, or one load balancer in front of
 * them. Called by three-instances.test.ts (and the nginx test). `targets` is read inside the tests,
 * after the caller's beforeAll has started the cluster.
 */
export function sharedSuite(name: string, targets: () => { entry: string[]; cluster: Cluster }): void {
  describe(name, () => {
    it("Variant B's rolling 1,000 per 24 h is exact per key across instances: 200 clients, exactly 1,000 admitted, the rest 429 with Retry-After", async () => {
      const t = targets();
      const key = await newKey(t, 'enterprise');
      const started = Date.now();
      const results = await flood(t.entry, '/api/v1/vendors?limit=1', key, 1_000 + 200, 200);
      const elapsedS = Math.ceil((Date.now() - started) / 1000);
      expectExactly(results, 1_000, '1000');
      // The oldest of the key's hits leaves the window 24 h after it was made, during the flood.
      for (const r of refusals(results)) {
        expect(r.retryAfter).toBeGreaterThanOrEqual(86_400 - elapsedS - 1);
        expect(r.retryAfter).toBeLessThanOrEqual(86_400);
      }
    }, 60_000);

    it("Variant A's 10,000 per UTC hour is exact per key across instances: 200 clients, exactly 10,000 admitted, the rest 429 until the hour ends", async () => {
      const t = targets();
      await clearOfTheHour(60_000);
      const key = await newKey(t, 'enterprise');
      const results = await flood(t.entry, '/v1/vendors?per_page=1', key, 10_000 + 200, 200);
      expectExactly(results, 10_000, '10000');
      for (const r of refusals(results)) {
        const untilHourEnd = Math.ceil((nextHourMs(r.at) - r.at) / 1000);
        expect(Math.abs(r.retryAfter - untilHourEnd)).toBeLessThanOrEqual(1);
      }
    }, 120_000);

    it('a key revoked through any instance (operator API) or the CLI gets 401 on every instance within 1 s', async () => {
      const t = targets();
      const ways: [string, (key: string) => Promise<void>][] = t.entry.map((base, i) => [
        `the operator API of entry ${i}`,
        async (key: string) => {
          const res = await adminCall(t, 'POST', '/keys/revoke', { key }, base);
          expect(res.status).toBe(200);
        },
      ]);
      ways.push([
        'the CLI',
        async (key: string) => {
          const r = await t.cluster.cli(['keys', 'revoke', key]);
          expect(r.code, r.stderr).toBe(0);
        },
      ]);
      for (const [how, revoke] of ways) {
        const key = await newKey(t, 'enterprise');
        // Every instance has the key in its cache first: the revocation must reach the caches.
        await everywhere(
          t,
          async (base) => (await get(base, '/api/v1/vendors?limit=1', key)).status === 200,
          5_000,
        );
        await revoke(key);
        const tookMs = await everywhere(t, async (base) => {
          const res = await get(base, '/api/v1/vendors?limit=1', key);
          if (res.status !== 401) return false;
          expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'invalid_api_key', status: 401 } });
          return true;
        });
        expect(tookMs, `revoked through ${how}`).toBeLessThanOrEqual(1_000);
      }
    }, 60_000);

    it('an evidence change, an override and an import through any instance or the CLI show on every instance within 1 s, cached bodies and ETags included', async () => {
      const t = targets();
      const key = await newKey(t, 'enterprise');
      const vendor = (await firstVendors(t, key, 1))[0]!;
      const at = (i: number) => t.entry[i % t.entry.length]!;
      let cents = 1_000 + Math.floor(Math.random() * 1_000);
      const price = () => {
        cents += 7;
        return cents / 100;
      };
      const priceRecord = (usd: number) =>
        `${JSON.stringify({ type: 'price', vendorSlug: vendor, peptideSlug: 'bpc-157', vialMg: 5, source: 'live', totalUsd: usd, inStock: true, updatedAt: new Date().toISOString() })}\n`;
      const prices = '/api/v1/peptides/bpc-157/prices';
      const detail = `/api/v1/vendors/${vendor}`;
      const showsPrice = (usd: number) => (body: string) =>
        (
          JSON.parse(body) as { data: { prices: { vendorSlug: string; totalUsd: number }[] } }
        ).data.prices.some((p) => p.vendorSlug === vendor && p.totalUsd === usd);
      const showsScore = (score: number) => (body: string) =>
        (JSON.parse(body) as { data: { score?: number } }).data.score === score;

      const changes: { how: string; path: string; write: () => Promise<(body: string) => boolean> }[] = [
        {
          how: 'a listing (evidence) through the operator API of entry 0',
          path: prices,
          write: async () => {
            const usd = price();
            const rows = [{ peptideSlug: 'bpc-157', vialMg: 5, totalUsd: usd, inStock: true }];
            expect((await adminCall(t, 'POST', `/vendors/${vendor}/listings`, { rows }, at(0))).status).toBe(
              200,
            );
            return showsPrice(usd);
          },
        },
        {
          how: 'an override through the operator API of entry 1',
          path: detail,
          write: async () => {
            const res = await adminCall(
              t,
              'PUT',
              `/vendors/${vendor}/overrides/score`,
              { value: 11, reason: 'cluster test' },
              at(1),
            );
            expect(res.status).toBe(200);
            return showsScore(11);
          },
        },
        {
          how: 'an import through the operator API of entry 2',
          path: prices,
          write: async () => {
            const usd = price();
            const res = await fetch(`${at(2)}/admin/v1/import`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${t.cluster.adminToken}`,
                'content-type': 'application/x-ndjson',
              },
              body: priceRecord(usd),
            });
            expect(res.status, await res.text()).toBe(200);
            return showsPrice(usd);
          },
        },
        {
          how: 'an override through the CLI',
          path: detail,
          write: async () => {
            const r = await t.cluster.cli([
              'overrides',
              'set',
              vendor,
              'score',
              '23',
              '--reason',
              'cluster test',
            ]);
            expect(r.code, r.stderr).toBe(0);
            return showsScore(23);
          },
        },
        {
          how: 'an import through the CLI',
          path: prices,
          write: async () => {
            const usd = price();
            const r = await t.cluster.cli(['import', '-'], priceRecord(usd));
            expect(r.code, r.stderr).toBe(0);
            return showsPrice(usd);
          },
        },
      ];
      for (const change of changes) {
        // Warm every instance's cache: the same body and ETag everywhere, and a 304 for it.
        const before = await get(t.entry[0]!, change.path, key);
        expect(before.status).toBe(200);
        await everywhere(
          t,
          async (base) => (await get(base, change.path, key, before.etag)).status === 304,
          5_000,
        );
        const shows = await change.write();
        const tookMs = await everywhere(t, async (base) => {
          // The old ETag no longer matches: a 200 with the new body and a new ETag.
          const res = await get(base, change.path, key, before.etag);
          return res.status === 200 && res.etag !== before.etag && shows(res.body);
        });
        expect(tookMs, change.how).toBeLessThanOrEqual(1_000);
        // And the new body is what every instance now holds: its ETag is answered 304 everywhere.
        const after = await get(t.entry[0]!, change.path, key);
        expect(shows(after.body), change.how).toBe(true);
        await everywhere(
          t,
          async (base) => (await get(base, change.path, key, after.etag)).status === 304,
          1_000,
        );
      }
    }, 90_000);

    it('webhook workers on every instance make each attempt once: one delivery per message, two when the first attempt fails', async () => {
      const t = targets();
      for (const instance of t.cluster.instances) expect(instance.logs()).toContain('Webhook delivery: on');
      // The first attempt at /flaky fails, the retry (300 ms later) succeeds: exactly two each.
      const receiver = await startReceiver((r, nth) => ({
        status: r.path === '/flaky' && nth === 1 ? 500 : 204,
      }));
      try {
        const account = `hooks-${randomBytes(4).toString('hex')}`;
        expect((await adminCall(t, 'POST', '/accounts', { name: account, plan: 'enterprise' })).status).toBe(
          201,
        );
        const key = await keyFor(t, account);
        const vendors = await firstVendors(t, key, 3, 5);
        for (const v of vendors)
          expect((await adminCall(t, 'PUT', `/vendors/${v}/claim`, { account })).status).toBe(200);
        for (const path of ['/ok', '/flaky']) {
          const res = await fetch(`${t.entry[0]}/v1/webhooks`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ url: receiver.url(path), events: ['score.changed'] }),
          });
          expect(res.status, await res.text()).toBe(201);
        }
        // 30 score changes, written through every entry in turn.
        const changes = 30;
        for (let i = 0; i < changes; i++) {
          const res = await adminCall(
            t,
            'PUT',
            `/vendors/${vendors[i % vendors.length]}/overrides/score`,
            { value: 40 + i, reason: 'webhook fan-out' },
            t.entry[i % t.entry.length],
          );
          expect(res.status).toBe(200);
        }
        // Only the overrides' messages are judged: a claim's own score change may be fanned out
        // between the two registrations and reach /ok alone (seen through nginx, 2 runs in 5).
        const expected = new Set(
          Array.from({ length: changes }, (_, i) => `${vendors[i % vendors.length]}=${40 + i}`),
        );
        const attempts = (path: string) => {
          const m = new Map<string, number>();
          for (const r of receiver.received) {
            if (r.path !== path) continue;
            const e = JSON.parse(r.body) as { data: { vendor_slug: string; new_score: number } };
            if (!expected.has(`${e.data.vendor_slug}=${e.data.new_score}`)) continue;
            m.set(r.eventId, (m.get(r.eventId) ?? 0) + 1);
          }
          return m;
        };
        const done = () =>
          attempts('/ok').size >= changes &&
          [...attempts('/flaky').values()].filter((n) => n >= 2).length >= changes;
        const deadline = Date.now() + 20_000;
        while (!done() && Date.now() < deadline) await sleep(100);
        // A few more poll rounds of every worker: a duplicate would arrive now.
        await sleep(1_500);
        const ok = attempts('/ok');
        const flaky = attempts('/flaky');
        // Every override's change arrived...
        expect(ok.size).toBe(changes);
        // ...each message in one attempt at /ok and two at /flaky, whichever instance made them.
        expect(
          [...ok.values()].every((n) => n === 1),
          JSON.stringify([...ok]),
        ).toBe(true);
        expect(
          [...flaky.values()].every((n) => n === 2),
          JSON.stringify([...flaky]),
        ).toBe(true);
        // Any other message (a claim's change) was also delivered at most once per attempt.
        for (const [id, n] of receiver.countById('/ok')) expect(n, id).toBe(1);
        expect(flaky.size).toBe(changes);
      } finally {
        await receiver.close();
      }
    }, 60_000);
  });
}

type Targets = { entry: string[]; cluster: Cluster };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The operator API through one entry (the first unless named). */
function adminCall(
  t: Targets,
  method: string,
  path: string,
  body?: unknown,
  base = t.entry[0]!,
): Promise<Response> {
  return fetch(`${base}/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${t.cluster.adminToken}`,
      'x-operator': 'cluster-suite',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function keyFor(t: Targets, account: string): Promise<string> {
  const res = await adminCall(t, 'POST', `/accounts/${account}/keys`, {});
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

/** A key of a new account of the plan, so each test's quota starts whole. */
async function newKey(t: Targets, plan: string): Promise<string> {
  const account = `cluster-${randomBytes(4).toString('hex')}`;
  const res = await adminCall(t, 'POST', '/accounts', { name: account, plan });
  expect(res.status, await res.clone().text()).toBe(201);
  return keyFor(t, account);
}

async function firstVendors(t: Targets, key: string, n: number, offset = 0): Promise<string[]> {
  const res = await get(t.entry[0]!, `/api/v1/vendors?limit=${n}&offset=${offset}`, key);
  expect(res.status).toBe(200);
  return (JSON.parse(res.body) as { data: { vendors: { slug: string }[] } }).data.vendors.map((v) => v.slug);
}

interface Answer {
  status: number;
  body: string;
  etag: string | null;
  retryAfter: number;
  requestId: string | null;
  remaining: string | null;
  limit: string | null;
  contentType: string | null;
  /** Date.now() when the answer arrived. */
  at: number;
}

async function get(base: string, path: string, key: string, ifNoneMatch?: string | null): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    headers: { authorization: `Bearer ${key}`, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) },
  });
  const body = await res.text();
  return {
    status: res.status,
    body,
    etag: res.headers.get('etag'),
    retryAfter: Number(res.headers.get('retry-after') ?? Number.NaN),
    requestId: res.headers.get('x-request-id'),
    remaining: res.headers.get('x-ratelimit-remaining'),
    limit: res.headers.get('x-ratelimit-limit'),
    contentType: res.headers.get('content-type'),
    at: Date.now(),
  };
}

/** `total` requests from `clients` concurrent clients, each sending to the entries round-robin. */
async function flood(
  entry: string[],
  path: string,
  key: string,
  total: number,
  clients: number,
): Promise<Answer[]> {
  const out: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        const n = next++;
        out.push(await get(entry[n % entry.length]!, path, key));
      }
    }),
  );
  return out;
}

const refusals = (results: Answer[]) => results.filter((r) => r.status === 429);

/** Exactly `limit` admitted, every other answer a 429 in the documented error body. */
function expectExactly(results: Answer[], limit: number, limitHeader: string): void {
  const byStatus = new Map<number, number>();
  for (const r of results) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
  expect(Object.fromEntries(byStatus)).toEqual({ 200: limit, 429: results.length - limit });
  for (const r of refusals(results)) {
    expect(r.contentType).toMatch(/^application\/json/);
    const body = JSON.parse(r.body) as { error: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'request_id', 'status']);
    expect(body.error).toMatchObject({ code: 'rate_limited', status: 429, request_id: r.requestId });
    expect(r.remaining).toBe('0');
    expect(r.limit).toBe(limitHeader);
    expect(Number.isInteger(r.retryAfter) && r.retryAfter >= 1).toBe(true);
  }
}

const nextHourMs = (ms: number) => Math.floor(ms / 3_600_000) * 3_600_000 + 3_600_000;

/** Variant A's window is the UTC hour: a flood must not straddle its end. */
async function clearOfTheHour(needMs: number): Promise<void> {
  const left = nextHourMs(Date.now()) - Date.now();
  if (left < needMs) await sleep(left + 1_000);
}

/**
 * Polls until `ok` holds on every instance, and returns how long that took (ms). Behind one entry
 * (a load balancer) a round sends as many requests as there are instances, so each is asked.
 */
async function everywhere(
  t: Targets,
  ok: (base: string) => Promise<boolean>,
  limitMs = 3_000,
): Promise<number> {
  const started = performance.now();
  const perEntry = t.entry.length === 1 ? t.cluster.instances.length : 1;
  for (;;) {
    let all = true;
    for (const base of t.entry) for (let i = 0; i < perEntry; i++) if (!(await ok(base))) all = false;
    const took = performance.now() - started;
    if (all) return took;
    if (took > limitMs) throw new Error(`not on every instance after ${Math.round(took)} ms`);
    await sleep(20);
  }
}
