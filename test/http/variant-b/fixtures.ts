import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../src/core/clock.ts';
import { bearer, createTestContext, T0, type TestContext } from '../../support/context.ts';
import type { Dialect } from '../../support/databases.ts';

/**
 * One small, hand-checked catalog shared by the Variant B suites. Every expected value in the
 * tests is derived by hand from the records below (the arithmetic is written next to it), never
 * by calling the code under test.
 */

export { T0 };
export const B = '/api/v1';
/** ISO 8601 (UTC, ms) of T0 + offset. */
export const iso = (offsetMs = 0): string => new Date(T0 + offsetMs).toISOString();
/** The fixture import runs at T0, so every envelope says this until the next import. */
export const LOADED_AT = iso(0);

type Pillars = { coa: number; purity: number; sentiment: number; transparency: number; experience: number };

const overrides = (slug: string, p: Partial<Pillars> & { score?: number }) =>
  Object.entries(p).map(([field, value]) => ({
    type: 'override',
    vendorSlug: slug,
    field,
    value,
    reason: 'fixture',
  }));

/*
 * Vendors and their composite (coa .30, purity .25, sentiment .15, transparency .15, experience .15,
 * rounded half up):
 *   apex      95,92,88,90,85 → 28.5+23+13.2+13.5+12.75 = 90.95 → 91   verified, premium, website
 *   halfway   90,90,90,90,80 → 27+22.5+13.5+13.5+12    = 88.5  → 89   (exact half: rounds up) claimed
 *   alpha2    "alpha"  80×5                            = 80           tie group at 80
 *   zeta      "ALPHA"  80×5                            = 80           same name case-insensitively → slug
 *   beta      "Beta"   50×5 = 50, but score pinned to 80              pinned composite
 *   borealis  80,70,60,75,65 → 24+17.5+9+11.25+9.75   = 71.5  → 72   unverified, free plan WITH a website
 *   unscored  four pillars + a score override of 99   → not scored (no experience pillar)
 *   bare      no overrides at all                      → not scored
 * Ranking: apex 91, halfway 89, alpha2 80 ("alpha"), zeta 80 ("ALPHA"), beta 80 ("Beta"), borealis 72.
 */
export const PILLARS: Record<string, Pillars> = {
  apex: { coa: 95, purity: 92, sentiment: 88, transparency: 90, experience: 85 },
  halfway: { coa: 90, purity: 90, sentiment: 90, transparency: 90, experience: 80 },
  alpha2: { coa: 80, purity: 80, sentiment: 80, transparency: 80, experience: 80 },
  zeta: { coa: 80, purity: 80, sentiment: 80, transparency: 80, experience: 80 },
  beta: { coa: 50, purity: 50, sentiment: 50, transparency: 50, experience: 50 },
  borealis: { coa: 80, purity: 70, sentiment: 60, transparency: 75, experience: 65 },
};

export const RANKING = [
  { slug: 'apex', name: 'Apex Labs', score: 91, verified: true, location: 'USA' },
  { slug: 'halfway', name: 'Halfway Peptides', score: 89, verified: true, location: 'Germany' },
  { slug: 'alpha2', name: 'alpha', score: 80, verified: false, location: 'UK' },
  { slug: 'zeta', name: 'ALPHA', score: 80, verified: true, location: 'UK' },
  { slug: 'beta', name: 'Beta', score: 80, verified: false, location: 'Poland' },
  { slug: 'borealis', name: 'Borealis Research', score: 72, verified: false, location: 'Canada' },
].map((v) => ({ ...v, pillars: PILLARS[v.slug]! }));

export const OWNER_ACCOUNT = 'Halfway Owner';

export const PEPTIDE = { slug: 'bpc-157', name: 'BPC-157', category: 'healing' };
export const EMPTY_PEPTIDE = { slug: 'tb-500', name: 'TB-500', category: 'recovery' };
export const LAB = { slug: 'janoshik', name: 'Janoshik Analytical' };

const price = (
  vendorSlug: string,
  source: 'live' | 'baseline',
  vialMg: number,
  totalUsd: number,
  inStock: boolean,
  ageMs: number,
) => ({
  type: 'price',
  vendorSlug,
  peptideSlug: PEPTIDE.slug,
  vialMg,
  source,
  totalUsd,
  inStock,
  updatedAt: iso(-ageMs),
});

/** Price rows of bpc-157 as imported (ages relative to T0). */
export const PRICE_RECORDS = [
  price('apex', 'live', 5, 45, true, HOUR_MS), // replaces the apex baseline 5 mg below
  price('apex', 'baseline', 5, 60, true, 10 * DAY_MS), // hidden by the live row
  price('apex', 'baseline', 10, 80, true, 10 * DAY_MS), // other vial size: stays
  price('borealis', 'live', 5, 40, true, 72 * HOUR_MS), // exactly 72 h: not stale
  price('borealis', 'baseline', 2, 30, true, 90 * DAY_MS + 1), // 90 d + 1 ms: stale
  price('halfway', 'live', 3, 10, true, 2 * HOUR_MS), // 3.3333…, claimed
  price('halfway', 'baseline', 10, 95, true, 90 * DAY_MS), // exactly 90 d: not stale, claimed
  price('halfway', 'baseline', 1, 50, false, DAY_MS), // out of stock, claimed
  price('zeta', 'live', 2, 10, true, HOUR_MS), // exactly 5
  price('alpha2', 'live', 2, 10.00001, true, HOUR_MS), // 5.000005: rounds to 5 too, but sorts after zeta
  price('beta', 'baseline', 5, 20, false, 5 * DAY_MS),
  price('beta', 'live', 10, 30, false, 72 * HOUR_MS + 1), // 72 h + 1 ms: stale
];

const row = (
  vendorSlug: string,
  vendorName: string,
  totalUsd: number,
  vialMg: number,
  perMg: number,
  inStock: boolean,
  claimed: boolean,
  live: boolean,
  stale: boolean,
  ageMs: number,
) => ({
  vendorSlug,
  vendorName,
  totalUsd,
  vialMg,
  perMg,
  inStock,
  claimed,
  live,
  stale,
  updatedAt: iso(-ageMs),
});

/** The merged table at T0: in stock first, then claimed, then exact perMg (ties: slug, vial). */
export const PRICE_TABLE_AT_T0 = [
  row('halfway', 'Halfway Peptides', 10, 3, 3.3333, true, true, true, false, 2 * HOUR_MS),
  row('halfway', 'Halfway Peptides', 95, 10, 9.5, true, true, false, false, 90 * DAY_MS),
  row('zeta', 'ALPHA', 10, 2, 5, true, false, true, false, HOUR_MS),
  row('alpha2', 'alpha', 10.00001, 2, 5, true, false, true, false, HOUR_MS),
  row('apex', 'Apex Labs', 80, 10, 8, true, false, false, false, 10 * DAY_MS),
  row('borealis', 'Borealis Research', 40, 5, 8, true, false, true, false, 72 * HOUR_MS),
  row('apex', 'Apex Labs', 45, 5, 9, true, false, true, false, HOUR_MS),
  row('borealis', 'Borealis Research', 30, 2, 15, true, false, false, true, 90 * DAY_MS + 1),
  row('halfway', 'Halfway Peptides', 50, 1, 50, false, true, false, false, DAY_MS),
  row('beta', 'Beta', 30, 10, 3, false, false, true, true, 72 * HOUR_MS + 1),
  row('beta', 'Beta', 20, 5, 4, false, false, false, false, 5 * DAY_MS),
];

const approved = (vendorSlug: string, batchId: string, testedAgoMs: number, purity = 99.1) => ({
  type: 'batch',
  vendorSlug,
  batchId,
  peptideSlug: PEPTIDE.slug,
  purity,
  lab: LAB.slug,
  testMethod: 'HPLC',
  testedAt: iso(-testedAgoMs),
  source: 'vendor-upload',
  sourceUrl: `https://${vendorSlug}.example.com/coa/1.pdf`,
  status: 'approved',
});

/** Batch IDs with characters that need URL-encoding (all approved by apex, tested 3 days ago). */
export const ODD_BATCH_IDS = ['LOT/2026#A?1', 'Lot 42 B', 'ÜNÏ-批次-7', '100%-PURE', 'X:1'];

export const BATCH_RECORDS = [
  approved('apex', 'BPC-001', 10 * DAY_MS),
  approved('apex', 'OLD-150', 150 * DAY_MS),
  approved('apex', 'OLD-151', 151 * DAY_MS, 97.5),
  {
    type: 'batch',
    vendorSlug: 'borealis',
    batchId: 'PEND-7',
    peptideSlug: PEPTIDE.slug,
    status: 'pending',
    submittedAt: iso(-2 * DAY_MS),
  },
  {
    type: 'batch',
    vendorSlug: 'borealis',
    batchId: 'REJ-9',
    peptideSlug: PEPTIDE.slug,
    status: 'rejected',
    submittedAt: iso(-3 * DAY_MS),
  },
  approved('apex', 'SHARED-1', 20 * DAY_MS, 98),
  {
    type: 'batch',
    vendorSlug: 'borealis',
    batchId: 'shared-1',
    peptideSlug: PEPTIDE.slug,
    status: 'pending',
    submittedAt: iso(-DAY_MS),
  },
  ...ODD_BATCH_IDS.map((id) => approved('apex', id, 3 * DAY_MS)),
];

/** The full fixture dataset, in import-record form. */
export const FIXTURE_RECORDS: Record<string, unknown>[] = [
  { type: 'account', name: OWNER_ACCOUNT, plan: 'pro' },
  { type: 'lab', slug: LAB.slug, name: LAB.name, trusted: true },
  { type: 'peptide', ...PEPTIDE, molecularWeight: '1419.5 g/mol' },
  { type: 'peptide', ...EMPTY_PEPTIDE, molecularWeight: '4963.4 g/mol' },
  {
    type: 'vendor',
    slug: 'apex',
    name: 'Apex Labs',
    location: 'USA',
    description: 'Premium supplier.',
    website: 'https://apex.example.com',
    listingPlan: 'premium',
    verified: true,
    pending: false,
  },
  {
    type: 'vendor',
    slug: 'halfway',
    name: 'Halfway Peptides',
    location: 'Germany',
    verified: true,
    pending: true,
  },
  { type: 'vendor', slug: 'alpha2', name: 'alpha', location: 'UK', verified: false },
  { type: 'vendor', slug: 'zeta', name: 'ALPHA', location: 'UK', verified: true, listingPlan: 'premium' }, // premium, no website
  { type: 'vendor', slug: 'beta', name: 'Beta', location: 'Poland' },
  {
    type: 'vendor',
    slug: 'borealis',
    name: 'Borealis Research',
    location: 'Canada',
    description: 'Free listing with a website on file.',
    website: 'https://borealis.example.com',
    listingPlan: 'free',
    verified: false,
    pending: true,
  },
  {
    type: 'vendor',
    slug: 'unscored',
    name: 'Unscored Inc',
    location: 'France',
    description: 'Four pillars only.',
  },
  { type: 'vendor', slug: 'bare', name: 'Bare Co', location: 'Spain' },
  { type: 'claim', vendorSlug: 'halfway', account: OWNER_ACCOUNT },
  ...Object.entries(PILLARS).flatMap(([slug, p]) => overrides(slug, p)),
  ...overrides('beta', { score: 80 }),
  ...overrides('unscored', { coa: 90, purity: 90, sentiment: 90, transparency: 90, score: 99 }),
  ...PRICE_RECORDS,
  ...BATCH_RECORDS,
];

export interface Fixture {
  ctx: TestContext;
  /** An enterprise key (Variant B limit 1000). */
  key: string;
  get(url: string, headers?: Record<string, string>, key?: string): Promise<LightMyRequestResponse>;
}

/** A fresh database of `dialect` with the fixture catalog imported at T0, and an enterprise key. */
export async function setupFixture(
  dialect: Dialect,
  records: Record<string, unknown>[] = FIXTURE_RECORDS,
): Promise<Fixture> {
  const ctx = await createTestContext(dialect);
  const result = await ctx.load(records);
  if (!result.ok) throw new Error(`fixture import failed: ${JSON.stringify(result.errors)}`);
  const key = await ctx.keyFor('enterprise');
  return {
    ctx,
    key,
    get: (url, headers = {}, k = key) =>
      ctx.app.inject({ method: 'GET', url, headers: { ...bearer(k), ...headers } }),
  };
}

/** Every Variant B endpoint, with a URL that answers 200 on the fixture. */
export const ENDPOINTS = [
  { name: 'GET /vendors', url: `${B}/vendors` },
  { name: 'GET /vendors/{slug}', url: `${B}/vendors/apex` },
  { name: 'GET /peptides/{slug}/prices', url: `${B}/peptides/bpc-157/prices` },
  { name: 'GET /peptides/{slug}/price-stats', url: `${B}/peptides/bpc-157/price-stats` },
  { name: 'GET /peptides/{slug}/price-history', url: `${B}/peptides/bpc-157/price-history` },
  { name: 'GET /batches/{batchId}', url: `${B}/batches/BPC-001` },
] as const;

/** Internals that must never reach a client. */
const LEAKS = [
  /\bselect\b/i,
  /\binsert\b/i,
  /sqlite/i,
  /postgres/i,
  /kysely/i,
  /node_modules/i,
  /\.ts:\d+/,
  /\n\s+at /,
  /stack/i,
];

/**
 * What the answer checks read: an inject() response, or an answer read off a real socket
 * (test/http/shared/transport.ts), so one check covers both request paths.
 */
export type ResponseLike = Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body' | 'json'>;

/** Asserts the exact documented error body, status and headers. Returns the body. */
export function expectError(res: ResponseLike, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as { error: { code: string; message: string; status: number; request_id: string } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'request_id', 'status']);
  expect(body.error.code).toBe(code);
  expect(body.error.status).toBe(status);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(body.error.request_id).toMatch(/^[0-9a-f]{12}-[0-9a-z]{6,}$/);
  expect(res.headers['x-request-id']).toBe(body.error.request_id);
  for (const leak of LEAKS) expect(res.body).not.toMatch(leak);
  return body.error;
}

/** Asserts a success envelope `{data, data_updated_at}` and returns `data`. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the callers
export function expectEnvelope(res: ResponseLike, dataUpdatedAt = LOADED_AT): any {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['data', 'data_updated_at']);
  expect(body.data_updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(body.data_updated_at).toBe(dataUpdatedAt);
  return body.data;
}

/** A well-formed key (`prk_live_` + 32 base62) that no account owns. */
export const UNKNOWN_KEY = 'prk_live_' + 'Zz9'.repeat(10) + 'Q1';
