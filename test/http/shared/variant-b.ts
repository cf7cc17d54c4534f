import { expect } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import { B, ENDPOINTS, expectEnvelope, setupFixture } from '../variant-b/fixtures.ts';
import { looseIntegers, plainNeighbours } from './param-cases.ts';
import type { EndpointUnderTest, SuccessBody, VariantUnderTest } from './variant.ts';

const TOP = 2_147_483_647;
/** The 6 scored vendors of B's fixture, in ranking order. */
const RANKED = ['apex', 'halfway', 'alpha2', 'zeta', 'beta', 'borealis'];

/** A page of `{vendors, total, limit, offset}`, with the applied limit and offset echoed. */
const vendorPage = (limit: number, offset: number) => (data: SuccessBody) => {
  expect(Object.keys(data).sort()).toEqual(['limit', 'offset', 'total', 'vendors']);
  expect(data).toMatchObject({ total: 6, limit, offset });
  expect(data.vendors.map((v: { slug: string }) => v.slug)).toEqual(RANKED.slice(offset, offset + limit));
};

/** `/api/v1/vendors`: limit is any 32-bit integer, clamped to 1..200 and echoed; offset 0..2^31 - 1. */
const vendorParams: Pick<EndpointUnderTest, 'accepts' | 'refuses'> = {
  accepts: [
    { query: '', check: vendorPage(50, 0) },
    { query: 'limit=1', check: vendorPage(1, 0) },
    { query: 'limit=0', check: vendorPage(1, 0) },
    { query: 'limit=-5', check: vendorPage(1, 0) },
    { query: `limit=${-TOP - 1}`, check: vendorPage(1, 0) },
    { query: 'limit=200', check: vendorPage(200, 0) },
    { query: 'limit=201', check: vendorPage(200, 0) },
    { query: `limit=${TOP}`, check: vendorPage(200, 0) },
    { query: 'limit=007', check: vendorPage(7, 0) },
    { query: 'offset=0', check: vendorPage(50, 0) },
    { query: 'limit=2&offset=1', check: vendorPage(2, 1) },
    { query: 'offset=6', check: vendorPage(50, 6) },
    { query: `offset=${TOP}`, check: vendorPage(50, TOP) },
    ...plainNeighbours('limit', '', (n, data) => vendorPage(n, 0)(data)),
    ...plainNeighbours('offset', '', (n, data) => vendorPage(50, n)(data)),
  ],
  refuses: [
    { query: 'limit=abc', param: 'limit', message: "Parameter 'limit' must be an integer." },
    { query: 'limit=1.5', param: 'limit', message: "Parameter 'limit' must be an integer." },
    { query: 'limit=', param: 'limit', message: "Parameter 'limit' must be an integer." },
    { query: `limit=${TOP + 1}`, param: 'limit', message: `Parameter 'limit' must be at most ${TOP}.` },
    {
      query: 'limit=99999999999999999999',
      param: 'limit',
      message: `Parameter 'limit' must be at most ${TOP}.`,
    },
    {
      query: `limit=${-TOP - 2}`,
      param: 'limit',
      message: `Parameter 'limit' must be at least ${-TOP - 1}.`,
    },
    { query: 'offset=abc', param: 'offset', message: "Parameter 'offset' must be an integer." },
    { query: 'offset=2.5', param: 'offset', message: "Parameter 'offset' must be an integer." },
    { query: 'offset=-1', param: 'offset', message: "Parameter 'offset' must be at least 0." },
    { query: 'limit=10&offset=-1', param: 'offset', message: "Parameter 'offset' must be at least 0." },
    { query: `offset=${TOP + 1}`, param: 'offset', message: `Parameter 'offset' must be at most ${TOP}.` },
    ...looseIntegers('limit'),
    ...looseIntegers('offset'),
  ],
};

/** A price history of `n` points, `days` echoed. */
const historyOf = (n: number) => (data: SuccessBody) => {
  expect(data.days).toBe(n);
  expect(data.points).toHaveLength(n);
};

/** `/api/v1/peptides/{slug}/price-history`: days 1..365, default 90; outside, 400 naming it. */
const historyParams: Pick<EndpointUnderTest, 'accepts' | 'refuses'> = {
  accepts: [
    { query: '', check: historyOf(90) },
    { query: 'days=1', check: historyOf(1) },
    { query: 'days=365', check: historyOf(365) },
    { query: 'days=007', check: historyOf(7) },
    ...plainNeighbours('days', '', (n, data) => historyOf(n)(data)),
  ],
  refuses: [
    { query: 'days=0', param: 'days', message: "Parameter 'days' must be at least 1." },
    { query: 'days=366', param: 'days', message: "Parameter 'days' must be at most 365." },
    { query: 'days=abc', param: 'days', message: "Parameter 'days' must be an integer." },
    { query: 'days=', param: 'days', message: "Parameter 'days' must be an integer." },
    ...looseIntegers('days'),
  ],
};

/** Variant B (`/api/v1`): a rolling 24 h window; every success is `{data, data_updated_at}`. */
export const VARIANT_B: VariantUnderTest = {
  name: 'Variant B',
  prefix: B,
  endpoints: ENDPOINTS.map((e) =>
    e.name === 'GET /vendors'
      ? { ...e, ...vendorParams }
      : e.name === 'GET /peptides/{slug}/price-history'
        ? { ...e, ...historyParams }
        : e,
  ),
  setup: async (dialect) => (await setupFixture(dialect)).ctx,
  limits: { free: 0, pro: 1000, enterprise: 1000, custom: 100_000 },
  resetS: (firstHitMs) => Math.ceil((firstHitMs + DAY_MS) / 1000),
  retryAfterS: (firstHitMs, nowMs) => Math.ceil((firstHitMs + DAY_MS - nowMs) / 1000),
  limitMessage: (limit) => new RegExp(`\\b${limit} requests per 24 hours per key\\b`),
  keyWithLimit: (ctx, limit) => ctx.keyFor('custom', undefined, { rateLimitB: limit }),
  expectSuccess: (res) => expectEnvelope(res),
  dataChange: {
    records: [{ type: 'vendor', slug: 'apex', name: 'Apex Labs BPC', location: 'USA' }],
    // Every B body carries data_updated_at, which every import moves.
    sameBody: () => false,
  },
};
