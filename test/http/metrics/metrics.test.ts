import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, bearer, createTestContext, type TestContext } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { parsePrometheusText, type Sample, sampleValue } from './prometheus-text.ts';

const PILLARS = ['coa', 'purity', 'sentiment', 'transparency', 'experience'] as const;
const FIXTURE = [
  { type: 'peptide', slug: 'bpc-157', name: 'BPC-157', category: 'healing', molecularWeight: '1419.5 g/mol' },
  {
    type: 'vendor',
    slug: 'apex',
    name: 'Apex',
    location: 'Canada',
    verified: true,
    listingPlan: 'premium',
    website: 'https://apex.example',
  },
  ...PILLARS.map((field) => ({ type: 'override', vendorSlug: 'apex', field, value: 90, reason: 'test' })),
];

const ADMIN = bearer(ADMIN_TOKEN);
const REQUESTS = 'purerank_http_requests_total';

describe.each(DIALECTS)('/metrics (%s)', (dialect) => {
  let ctx: TestContext;
  let base: string;
  let key: string;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    expect((await ctx.load(FIXTURE)).ok).toBe(true);
    key = await ctx.keyFor('enterprise');
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => ctx?.close());

  /** A scrape over the socket, parsed (and so checked) as Prometheus text. */
  const scrape = async (): Promise<Sample[]> => {
    const res = await fetch(`${base}/metrics`, { headers: ADMIN });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    return parsePrometheusText(await res.text());
  };

  it('answers only the operator token, in the documented error body otherwise, never cached', async () => {
    for (const headers of [{}, bearer(key), bearer(`${ADMIN_TOKEN}x`), { authorization: ADMIN_TOKEN }]) {
      const res = await fetch(`${base}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = (await res.json()) as { error: Record<string, unknown> };
      expect(body).toEqual({
        error: {
          code: 'invalid_api_key',
          message: 'The admin token is not valid.',
          status: 401,
          request_id: res.headers.get('x-request-id'),
        },
      });
      // Nothing of the service's state is in a refusal, and no rate-limit header either.
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
    const ok = await ctx.app.inject({ url: '/metrics', headers: ADMIN });
    expect(ok.statusCode).toBe(200);
    const samples = parsePrometheusText(ok.body);
    // prom-client's default metrics: event-loop lag and heap.
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);
  });

  it('counts every request by route, variant and status, fast-path answers included', async () => {
    const url = '/api/v1/vendors?limit=5';
    const labels = { method: 'GET', route: '/api/v1/vendors', variant: 'b', status: '200' };
    const before = await scrape();
    const servedBefore = ctx.app.fastPath.served;
    const n = 12;
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${base}${url}`, { headers: bearer(key) });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    // The first fills the cache through Fastify; the rest are the fast path's (a PostgreSQL
    // version poll may send one more to Fastify).
    expect(ctx.app.fastPath.served - servedBefore).toBeGreaterThanOrEqual(n - 3);
    // A 401 and an unknown route under the variant, and a 404 of a known route.
    expect((await fetch(`${base}${url}`)).status).toBe(401);
    expect((await fetch(`${base}/api/v1/nothing-here`, { headers: bearer(key) })).status).toBe(404);
    expect((await fetch(`${base}/api/v1/vendors/nope`, { headers: bearer(key) })).status).toBe(404);
    const after = await scrape();
    const delta = (name: string, l: Record<string, string>) =>
      sampleValue(after, name, l) - sampleValue(before, name, l);

    expect(delta(REQUESTS, labels)).toBe(n);
    expect(delta(REQUESTS, { ...labels, status: '401' })).toBe(1);
    expect(delta(REQUESTS, { route: 'unmatched', variant: 'b', status: '404' })).toBe(1);
    expect(delta(REQUESTS, { route: '/api/v1/vendors/:slug', variant: 'b', status: '404' })).toBe(1);
    const h = { method: 'GET', route: '/api/v1/vendors', variant: 'b' };
    expect(delta('purerank_http_request_duration_seconds_count', h)).toBe(n + 1);
    expect(delta('purerank_http_request_duration_seconds_bucket', { ...h, le: '+Inf' })).toBe(n + 1);
    expect(delta('purerank_http_request_duration_seconds_sum', h)).toBeGreaterThan(0);
    // Every admitted request was a limiter decision (the 401 and the unknown route were not).
    expect(delta('purerank_ratelimit_decisions_total', { variant: 'b', decision: 'admitted' })).toBe(n + 1);
    // Each cached read looked its body up once: the list's first (a miss), then hits, fast path or
    // not; and the unknown vendor's (a miss: nothing to cache).
    const hits = delta('purerank_response_cache_hits_total', {});
    const misses = delta('purerank_response_cache_misses_total', {});
    expect(hits + misses).toBe(n + 1);
    expect(misses).toBeGreaterThanOrEqual(2);
    expect(hits).toBeGreaterThanOrEqual(n - 3);
  });

  it('counts 429s and the limiter decisions exactly, fast path or not', async () => {
    const limited = await ctx.keyFor('custom', undefined, { rateLimitB: 4 });
    const before = await scrape();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${base}/api/v1/vendors/apex`, { headers: bearer(limited) });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429]);
    const after = await scrape();
    const delta = (name: string, l: Record<string, string>) =>
      sampleValue(after, name, l) - sampleValue(before, name, l);
    const route = { method: 'GET', route: '/api/v1/vendors/:slug', variant: 'b' };
    expect(delta(REQUESTS, { ...route, status: '200' })).toBe(4);
    expect(delta(REQUESTS, { ...route, status: '429' })).toBe(3);
    expect(delta('purerank_ratelimit_decisions_total', { variant: 'b', decision: 'admitted' })).toBe(4);
    expect(delta('purerank_ratelimit_decisions_total', { variant: 'b', decision: 'limited' })).toBe(3);
    expect(delta('purerank_ratelimit_decisions_total', { variant: 'a', decision: 'limited' })).toBe(0);
  });

  it('scraping is not rate-limited and not counted against any key', async () => {
    const before = await scrape();
    for (let i = 0; i < 5; i++) await scrape();
    const after = await scrape();
    for (const variant of ['a', 'b'])
      for (const decision of ['admitted', 'limited'])
        expect(sampleValue(after, 'purerank_ratelimit_decisions_total', { variant, decision })).toBe(
          sampleValue(before, 'purerank_ratelimit_decisions_total', { variant, decision }),
        );
    const m = { method: 'GET', route: '/metrics', variant: 'other', status: '200' };
    expect(sampleValue(after, REQUESTS, m) - sampleValue(before, REQUESTS, m)).toBe(6);
  });

  it('keeps label cardinality bounded under a flood of random paths and queries', async () => {
    // Every label value the service can make, before the flood (the statuses seen are warmed first).
    for (const p of ['/x', '/v1/x', '/api/v1/x', '/admin/v1/x'])
      await ctx.app.inject({ url: p, headers: bearer(key) });
    const series = (samples: Sample[]) =>
      new Set(
        samples.filter((s) => s.name.startsWith('purerank_http_')).map((s) => JSON.stringify(s.labels)),
      );
    const before = series(await scrape());
    const random = () => randomBytes(6).toString('hex');
    const paths = [
      () => `/${random()}`,
      () => `/v1/${random()}/${random()}`,
      () => `/api/v1/${random()}`,
      () => `/admin/v1/${random()}`,
      () => `/api/v1/vendors/${random()}`,
      () => `/api/v1/vendors?${random()}=1`,
      () => `/metrics/${random()}`,
    ];
    for (let i = 0; i < 350; i++) {
      const path = paths[i % paths.length]!();
      const headers = i % 2 === 0 ? {} : bearer(key);
      const res = await ctx.app.inject({ url: path, headers });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    }
    const afterSamples = await scrape();
    const after = series(afterSamples);
    // No random string became a label value: routes are templates or `unmatched`.
    for (const s of afterSamples.filter((x) => x.name.startsWith('purerank_http_')))
      expect(s.labels.route === 'unmatched' || !/[0-9a-f]{12}/.test(s.labels.route ?? '')).toBe(true);
    // A few new (route, status) pairs at most (a 400 of a known route, a 401 without a key).
    expect(after.size - before.size).toBeLessThanOrEqual(6);
  });

  it('reports the outbox lag from the database: events not fanned out and the oldest one’s age', async () => {
    // A lower pillar moves the vendor's score: a score.changed event. No delivery worker runs here.
    expect(
      (await ctx.load([{ type: 'override', vendorSlug: 'apex', field: 'coa', value: 20, reason: 'test' }]))
        .ok,
    ).toBe(true);
    const samples = await scrape();
    const pending = sampleValue(samples, 'purerank_outbox_pending_events');
    expect(pending).toBeGreaterThan(0);
    expect(sampleValue(samples, 'purerank_outbox_oldest_pending_age_seconds')).toBe(0);
    ctx.clock.advance(30_000);
    expect(sampleValue(await scrape(), 'purerank_outbox_oldest_pending_age_seconds')).toBe(30);
    // A fan-out moves the cursor past them all: nothing pending.
    const r = await ctx.container.store.deliveries.fanOut(() => [], 10_000, []);
    expect(r.events).toBe(pending);
    const done = await scrape();
    expect(sampleValue(done, 'purerank_outbox_pending_events')).toBe(0);
    expect(sampleValue(done, 'purerank_outbox_oldest_pending_age_seconds')).toBe(0);
    expect(sampleValue(done, 'purerank_outbox_lag_errors_total')).toBe(0);
  });

  it("reads this process's delivery attempts once the server hands it the worker's counts", async () => {
    const none = await scrape();
    expect(none.some((s) => s.name === 'purerank_webhook_delivery_attempts_total')).toBe(false);
    const attempts = { succeeded: 5, failed: 2 };
    ctx.app.metrics.countDeliveriesFrom(() => attempts);
    attempts.succeeded += 1;
    const samples = await scrape();
    expect(sampleValue(samples, 'purerank_webhook_delivery_attempts_total', { outcome: 'succeeded' })).toBe(
      6,
    );
    expect(sampleValue(samples, 'purerank_webhook_delivery_attempts_total', { outcome: 'failed' })).toBe(2);
  });
});

describe.each(DIALECTS)('/metrics without an operator token (%s)', (dialect) => {
  it('is a 404 in the documented body saying how to switch it on, even with a token sent', async () => {
    const ctx = await createTestContext(dialect, { config: { adminToken: null } });
    try {
      for (const headers of [{}, ADMIN]) {
        const res = await ctx.app.inject({ url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.json().error).toMatchObject({ code: 'not_found', status: 404 });
        expect(res.json().error.message).toContain('PURERANK_ADMIN_TOKEN');
      }
    } finally {
      await ctx.close();
    }
  });
});
