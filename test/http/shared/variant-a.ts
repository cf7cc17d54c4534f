import { expect } from 'vitest';
import { A, ENDPOINTS, expectOk, hourEndS, RANKING, setupFixture } from '../variant-a/fixtures.ts';
import { looseIntegers, plainNeighbours } from './param-cases.ts';
import type {
  AcceptedParams,
  EndpointUnderTest,
  RefusedParams,
  SuccessBody,
  VariantUnderTest,
} from './variant.ts';

const TOP = 2_147_483_647;
const ranked = RANKING.map((v) => v.slug);
const slugs = (items: { slug: string }[]) => items.map((i) => i.slug);

/** A page of the 9-vendor ranking: `{data, total, page}`. */
const page = (n: number, perPage: number) => (body: SuccessBody) => {
  expect(Object.keys(body).sort()).toEqual(['data', 'page', 'total']);
  expect(body.total).toBe(9);
  expect(body.page).toBe(n);
  const from = Math.min((n - 1) * perPage, ranked.length);
  expect(slugs(body.data)).toEqual(ranked.slice(from, from + perPage));
};

/** `/v1/vendors`: page ≥ 1 (at most 2^31 - 1), per_page 1..200. */
const vendorParams: Pick<EndpointUnderTest, 'accepts' | 'refuses'> = {
  accepts: [
    { query: '', check: page(1, 50) },
    { query: 'per_page=1', check: page(1, 1) },
    { query: 'per_page=200', check: page(1, 200) },
    { query: 'page=1&per_page=5', check: page(1, 5) },
    { query: 'page=2&per_page=5', check: page(2, 5) },
    { query: 'page=3&per_page=4', check: page(3, 4) },
    { query: `page=${TOP}`, check: page(TOP, 50) },
    ...plainNeighbours('per_page', '', (n, body) => page(1, n)(body)),
    ...plainNeighbours('page', '', (n, body) => page(n, 50)(body)),
  ],
  refuses: [
    { query: 'page=0', param: 'page', message: "Parameter 'page' must be at least 1." },
    { query: 'page=-1', param: 'page', message: "Parameter 'page' must be at least 1." },
    { query: 'page=abc', param: 'page', message: "Parameter 'page' must be an integer." },
    { query: 'page=1.5', param: 'page', message: "Parameter 'page' must be an integer." },
    { query: 'page=', param: 'page', message: "Parameter 'page' must be an integer." },
    { query: `page=${TOP + 1}`, param: 'page', message: `Parameter 'page' must be at most ${TOP}.` },
    { query: 'per_page=0', param: 'per_page', message: "Parameter 'per_page' must be at least 1." },
    { query: 'per_page=-3', param: 'per_page', message: "Parameter 'per_page' must be at least 1." },
    { query: 'per_page=201', param: 'per_page', message: "Parameter 'per_page' must be at most 200." },
    { query: 'per_page=abc', param: 'per_page', message: "Parameter 'per_page' must be an integer." },
    { query: 'per_page=2.5', param: 'per_page', message: "Parameter 'per_page' must be an integer." },
    { query: 'page=2&per_page=201', param: 'per_page' },
    { query: 'page=0&per_page=10', param: 'page' },
    ...looseIntegers('page'),
    ...looseIntegers('per_page'),
  ],
};

/** A search answer: `{vendors, peptides}`, each within the limit. */
const found =
  (vendors: string[] | null, peptides: string[] | null, limit = 10) =>
  (body: SuccessBody) => {
    expect(Object.keys(body).sort()).toEqual(['peptides', 'vendors']);
    expect(body.vendors.length).toBeLessThanOrEqual(limit);
    expect(body.peptides.length).toBeLessThanOrEqual(limit);
    if (vendors) expect(slugs(body.vendors)).toEqual(vendors);
    if (peptides) expect(slugs(body.peptides)).toEqual(peptides);
  };

/** "labs" finds Apex Labs (91) and Nova Labs (69), in score order, and no peptide. */
const LABS = ['apex', 'nova'];
const emoji = (n: number) => encodeURIComponent('😀'.repeat(n));

/** `/v1/search`: q 1..200 characters (code points) with at least one word, limit 1..50. */
const searchParams: Pick<EndpointUnderTest, 'accepts' | 'refuses'> = {
  accepts: [
    { query: 'q=bpc', check: found([], ['bpc-157']) },
    { query: 'q=labs', check: found(LABS, []) },
    { query: 'q=labs&limit=1', check: found(['apex'], [], 1) },
    { query: 'q=labs&limit=50', check: found(LABS, [], 50) },
    { query: 'q=a', check: found(null, null) },
    { query: `q=${'a'.repeat(200)}`, check: found([], []) },
    { query: `q=${encodeURIComponent(`${'labs '.repeat(39)}labs.`)}`, check: found(null, null) }, // 5 × 40
    // 200 emoji are 400 UTF-16 units but 200 characters; they hold no word, so nothing is cached.
    { query: `q=${emoji(200)}`, check: found([], []), notCached: true },
    ...plainNeighbours('limit', 'q=labs&', (n, body) => found(LABS, [], n)(body)),
  ] satisfies AcceptedParams[],
  refuses: [
    { query: '', param: 'q' },
    { query: 'limit=5', param: 'q' },
    { query: 'q=', param: 'q' },
    { query: 'q=%20', param: 'q' },
    { query: 'q=%20%20%09%20', param: 'q' },
    { query: 'q=%0A', param: 'q' },
    { query: `q=${'a'.repeat(201)}`, param: 'q' },
    { query: `q=${emoji(201)}`, param: 'q' },
    { query: `q=${'%20'.repeat(300)}`, param: 'q' },
    { query: 'q=labs&limit=0', param: 'limit', message: "Parameter 'limit' must be at least 1." },
    { query: 'q=labs&limit=-1', param: 'limit', message: "Parameter 'limit' must be at least 1." },
    { query: 'q=labs&limit=51', param: 'limit', message: "Parameter 'limit' must be at most 50." },
    { query: 'q=labs&limit=abc', param: 'limit', message: "Parameter 'limit' must be an integer." },
    { query: 'q=labs&limit=1.5', param: 'limit', message: "Parameter 'limit' must be an integer." },
    ...looseIntegers('limit', 'q=labs&'),
  ] satisfies RefusedParams[],
};

const PARAMS: Record<string, Pick<EndpointUnderTest, 'accepts' | 'refuses'>> = {
  'GET /vendors': vendorParams,
  'GET /search': searchParams,
};

/** Variant A (`/v1`): fixed windows on the UTC hour; details and lists at top level. */
export const VARIANT_A: VariantUnderTest = {
  name: 'Variant A',
  prefix: A,
  endpoints: ENDPOINTS.map((e) => ({ ...e, ...PARAMS[e.name] })),
  setup: async (dialect) => (await setupFixture(dialect)).ctx,
  limits: { free: 0, pro: 1000, enterprise: 10_000, custom: 100_000 },
  resetS: (_firstHitMs, nowMs) => hourEndS(nowMs),
  retryAfterS: (_firstHitMs, nowMs) => Math.ceil((hourEndS(nowMs) * 1000 - nowMs) / 1000),
  limitMessage: (limit) => new RegExp(`\\b${limit} requests per hour per key\\b`),
  keyWithLimit: (ctx, limit) => ctx.keyFor('custom', undefined, { rateLimitA: limit }),
  expectSuccess: expectOk,
  dataChange: {
    // "Apex Labs" → "Apex Labs BPC": every endpoint that shows apex changes (search "bpc" finds it by name now).
    records: [{ type: 'vendor', slug: 'apex', name: 'Apex Labs BPC', location: 'USA' }],
    // These bodies name no vendor.
    sameBody: (url) => url.endsWith('/peptides') || url.endsWith('/bpc-157/vendors'),
  },
};
