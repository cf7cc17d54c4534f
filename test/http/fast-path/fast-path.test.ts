import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../../src/core/keys/manage-keys.ts';
import { bearer, createTestContext, type TestContext } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';

const PILLARS = ['coa', 'purity', 'sentiment', 'transparency', 'experience'] as const;
const vendor = (slug: string, name: string, value: number, verified = true) => [
  {
    type: 'vendor',
    slug,
    name,
    location: 'Canada',
    verified,
    listingPlan: 'premium',
    website: `https://${slug}.example`,
  },
  ...PILLARS.map((field) => ({ type: 'override', vendorSlug: slug, field, value, reason: 'test' })),
];
const FIXTURE = [
  { type: 'lab', slug: 'lab-one', name: 'Lab One', trusted: true },
  { type: 'peptide', slug: 'bpc-157', name: 'BPC-157', category: 'healing', molecularWeight: '1419.5 g/mol' },
  ...vendor('apex', 'Apex', 91),
  ...vendor('birch', 'Birch', 78),
  {
    type: 'price',
    vendorSlug: 'apex',
    peptideSlug: 'bpc-157',
    vialMg: 5,
    source: 'baseline',
    totalUsd: 40,
    inStock: true,
    updatedAt: '2026-05-30T00:00:00.000Z',
  },
  {
    type: 'price',
    vendorSlug: 'birch',
    peptideSlug: 'bpc-157',
    vialMg: 5,
    source: 'baseline',
    totalUsd: 35,
    inStock: true,
    updatedAt: '2026-05-30T00:00:00.000Z',
  },
  {
    type: 'batch',
    vendorSlug: 'apex',
    batchId: 'AX/01 #7',
    peptideSlug: 'bpc-157',
    purity: 99.2,
    lab: 'lab-one',
    testMethod: 'HPLC',
    testedAt: '2026-05-01T00:00:00.000Z',
    source: 'vendor',
    sourceUrl: 'https://apex.example/coa',
    status: 'approved',
  },
];

/** The cacheable reads the fast path knows, in several spellings. */
const URLS = [
  '/api/v1/vendors',
  '/api/v1/vendors?limit=1&offset=1',
  '/api/v1/vendors?limit=999',
  '/api/v1/vendors/apex',
  '/api/v1/peptides/bpc-157/prices',
  `/api/v1/batches/${encodeURIComponent('AX/01 #7')}`,
  '/api/v1/batches/NOPE-1',
  '/v1/vendors',
  '/v1/vendors?page=1&per_page=1',
  '/v1/vendors/birch',
  '/v1/peptides/bpc-157/vendors',
  '/v1/search?q=bpc157',
  '/v1/search?q=BPC+157&limit=3',
];

/** Headers whose values legitimately differ between two answers to the same request. */
const VARYING = new Set(['x-request-id', 'date', 'x-ratelimit-remaining', 'keep-alive', 'connection']);

describe.each(DIALECTS)('fast path for cached reads (%s)', (dialect) => {
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

  const get = (url: string, headers: Record<string, string> = bearer(key)) =>
    fetch(`${base}${url}`, { headers });

  it.each(URLS)('answers %s exactly as the framework does', async (url) => {
    const first = await get(url); // a cache miss: the framework answers and fills the cache
    const firstBody = await first.text();
    // On PostgreSQL a change notice or the once-a-second version poll can send one request to the
    // framework (a data check to load): ask again until the fast path answers, a few times at most.
    let before = ctx.app.fastPath.served;
    let second = await get(url);
    let secondBody = await second.text();
    let fromFramework = 0;
    while (ctx.app.fastPath.served === before && ++fromFramework < 4) {
      before = ctx.app.fastPath.served;
      second = await get(url);
      secondBody = await second.text();
    }
    expect(ctx.app.fastPath.served, 'a repeated request took the fast path').toBe(before + 1);
    expect(second.status).toBe(first.status);
    expect(secondBody).toBe(firstBody);
    const names = (r: Response) => [...r.headers.keys()].filter((h) => !VARYING.has(h)).sort();
    expect(names(second)).toEqual(names(first));
    for (const h of names(first)) expect(second.headers.get(h), h).toBe(first.headers.get(h));
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-remaining')) - 1 - fromFramework,
    );
    expect(second.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]{6,}$/);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });

  it('leaves conditional, unknown-key, free-plan and odd requests to the framework', async () => {
    const etag = (await get('/api/v1/vendors')).headers.get('etag')!;
    // The fast path answers a repeat (a few tries: on PostgreSQL the version poll may take one).
    const before = ctx.app.fastPath.served;
    for (let i = 0; i < 4 && ctx.app.fastPath.served === before; i++) await get('/api/v1/vendors');
    const served = ctx.app.fastPath.served;
    expect(served).toBe(before + 1);
    expect((await get('/api/v1/vendors', { ...bearer(key), 'if-none-match': etag })).status).toBe(304);
    expect((await get('/api/v1/vendors', bearer(`prk_live_${'Z'.repeat(32)}`))).status).toBe(401);
    const free = await ctx.keyFor('free');
    await get('/api/v1/vendors', bearer(free)); // learn the key
    expect((await get('/api/v1/vendors', bearer(free))).status).toBe(403);
    expect((await get('/api/v1/vendors?limit=1e1')).status).toBe(400);
    expect((await get('/api/v1/vendors?limit=abc')).status).toBe(400);
    expect((await get('/v1/search?q=%20')).status).toBe(400);
    expect(ctx.app.fastPath.served).toBe(served);
  });

  it('never answers what a request-wide rule refuses: U+0000, or text the two query parsers read differently', async () => {
    // A cached answer exists that these would share a cache key with (search keys fold punctuation).
    for (let i = 0; i < 3; i++) expect((await get('/v1/search?q=bpc')).status).toBe(200);
    const served = ctx.app.fastPath.served;
    const nul = await get('/v1/search?q=bpc%00');
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { error: { message: string } }).error.message).toMatch(/NUL/);
    // Not UTF-8: URLSearchParams would make one U+FFFD of each, Fastify keeps the 300 raw characters.
    expect((await get(`/v1/search?q=bpc${'%C0'.repeat(100)}`)).status).toBe(400);
    expect((await get('/v1/vendors/apex%00')).status).toBe(400);
    expect(ctx.app.fastPath.served).toBe(served);
  });

  it('counts what it serves in the same quota, and the framework refuses the one over it', async () => {
    const small = await ctx.keyFor('custom', undefined, { rateLimitB: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await get('/api/v1/vendors/birch', bearer(small))).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const over = await get('/api/v1/vendors/birch', bearer(small));
    expect(over.headers.get('retry-after')).toBeTruthy();
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });

  it("follows a change of the key's plan or limit at once", async () => {
    const account = `fast-plan-${dialect}`;
    const k = await ctx.keyFor('custom', account, { rateLimitB: 50 });
    // A new key bumps the keys version; on PostgreSQL the notice of it arrives asynchronously.
    await ctx.container.freshness.refresh();
    const limitOf = async () =>
      (await get('/api/v1/vendors/birch', bearer(k))).headers.get('x-ratelimit-limit');
    const served = ctx.app.fastPath.served;
    // The first request learns the key; a later one comes through the fast path (on PostgreSQL the
    // once-a-second version poll can send one of them to the framework: a few tries at most).
    const limits = [await limitOf()];
    for (let i = 0; i < 4 && ctx.app.fastPath.served === served; i++) limits.push(await limitOf());
    expect(new Set(limits)).toEqual(new Set(['50']));
    expect(ctx.app.fastPath.served).toBeGreaterThan(served);
    await ctx.container.operator.updateAccount(account, { plan: 'custom', rateLimitB: 20 }, 'test');
    expect(await limitOf()).toBe('20');
    expect(await limitOf()).toBe('20');
    await ctx.container.operator.updateAccount(account, { plan: 'free' }, 'test');
    expect((await get('/api/v1/vendors/birch', bearer(k))).status).toBe(403);
  });

  it('stops answering for a revoked key at once, and follows a data change at once', async () => {
    const k = await ctx.keyFor('enterprise');
    await get('/v1/vendors/apex', bearer(k));
    expect((await get('/v1/vendors/apex', bearer(k))).status).toBe(200);
    await revokeKey(ctx.container.store, k);
    expect((await get('/v1/vendors/apex', bearer(k))).status).toBe(401);

    expect((await (await get('/v1/vendors/apex')).json()) as { score: number }).toMatchObject({ score: 91 });
    await ctx.load(
      PILLARS.map((field) => ({ type: 'override', vendorSlug: 'apex', field, value: 60, reason: 'moved' })),
    );
    expect((await (await get('/v1/vendors/apex')).json()) as { score: number }).toMatchObject({ score: 60 });
  });
});
