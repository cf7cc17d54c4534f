import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../src/core/clock.ts';
import { bearer, createTestContext, T0, type TestContext } from '../../support/context.ts';
import type { Dialect } from '../../support/databases.ts';
import type { ResponseLike } from '../variant-b/fixtures.ts';

export { expectError, type ResponseLike, UNKNOWN_KEY } from '../variant-b/fixtures.ts';

/**
 * One small, hand-checked catalog shared by the Variant A suites. Every expected value in the
 * tests is derived by hand from the records below (the arithmetic is written next to it), never
 * by calling the code under test.
 */

export { T0 };
export const A = '/v1';
/** ISO 8601 (UTC, ms) of T0 + offset. */
export const iso = (offsetMs = 0): string => new Date(T0 + offsetMs).toISOString();

export type Pillars = {
  coa: number;
  purity: number;
  sentiment: number;
  transparency: number;
  experience: number;
};

const flat = (n: number): Pillars => ({ coa: n, purity: n, sentiment: n, transparency: n, experience: n });

export const overrides = (slug: string, p: Partial<Pillars> & { score?: number }) =>
  Object.entries(p).map(([field, value]) => ({
    type: 'override',
    vendorSlug: slug,
    field,
    value,
    reason: 'fixture',
  }));

/*
 * Vendors and their composite (coa .30, purity .25, sentiment .15, transparency .15, experience .15,
 * rounded half up), tier (platinum ≥ 90, gold ≥ 80, silver ≥ 70, bronze below):
 *   apex      95,92,88,90,85 → 28.5+23+13.2+13.5+12.75 = 90.95 → 91  platinum  verified
 *   novara    90×5                                   = 90         platinum  verified (boundary)
 *   halfway   90,90,90,90,80 → 27+22.5+13.5+13.5+12 = 88.5 → 89   gold      verified (boundary)
 *   alpha2    "alpha" 80×5                           = 80         gold      verified (boundary)
 *   zeta      "ALPHA" 80×5                           = 80         gold      verified (same name c.i. → slug)
 *   beta      "Beta"  50×5 = 50, score pinned to 80  = 80         gold      verified
 *   orion-two 79×5                                   = 79         silver    verified (boundary)
 *   orion-one 70×5                                   = 70         silver    verified (boundary)
 *   nova      69×5                                   = 69         bronze    verified (boundary)
 *   borealis  80,70,60,75,65 → 24+17.5+9+11.25+9.75 = 71.5 → 72   silver    NOT verified
 *   unscored  four pillars + a score override of 99  → not scored (verified)
 *   bare      nothing                                → not scored (verified)
 * Variant A ranking (verified and scored): apex 91, novara 90, halfway 89, alpha2 80 ("alpha"),
 * zeta 80 ("ALPHA"), beta 80 ("Beta" — after "alpha" case-insensitively, though "B" < "a" in bytes),
 * orion-two 79, orion-one 70, nova 69. Total 9.
 */
export const PILLARS: Record<string, Pillars> = {
  apex: { coa: 95, purity: 92, sentiment: 88, transparency: 90, experience: 85 },
  novara: flat(90),
  halfway: { coa: 90, purity: 90, sentiment: 90, transparency: 90, experience: 80 },
  alpha2: flat(80),
  zeta: flat(80),
  beta: flat(50),
  'orion-two': flat(79),
  'orion-one': flat(70),
  nova: flat(69),
  borealis: { coa: 80, purity: 70, sentiment: 60, transparency: 75, experience: 65 },
};

export const LAB = { slug: 'janoshik', name: 'Janoshik Analytical' };
export const APEX_VERIFIED_AT = '2026-01-15T00:00:00.000Z';

/** The Variant A vendor list, in order, every field as the API must show it. */
export const RANKING = [
  { slug: 'apex', name: 'Apex Labs', score: 91, purity: '99.1%', tier: 'platinum', location: 'USA' },
  { slug: 'novara', name: 'Novara Research', score: 90, purity: '99%', tier: 'platinum', location: 'Canada' },
  {
    slug: 'halfway',
    name: 'Halfway Peptides',
    score: 89,
    purity: '98.4%',
    tier: 'gold',
    location: 'Germany',
  },
  { slug: 'alpha2', name: 'alpha', score: 80, purity: '99%', tier: 'gold', location: 'UK' },
  { slug: 'zeta', name: 'ALPHA', score: 80, purity: '98.8%', tier: 'gold', location: 'UK' },
  { slug: 'beta', name: 'Beta', score: 80, purity: '97.5%', tier: 'gold', location: 'Poland' },
  { slug: 'orion-two', name: 'Orion Two', score: 79, purity: '99.6%', tier: 'silver', location: 'Norway' },
  { slug: 'orion-one', name: 'Orion One', score: 70, purity: '96.9%', tier: 'silver', location: 'Norway' },
  { slug: 'nova', name: 'Nova Labs', score: 69, purity: '97.2%', tier: 'bronze', location: 'Spain' },
].map((v) => ({
  slug: v.slug,
  name: v.name,
  score: v.score,
  purity: v.purity,
  verified: true,
  tier: v.tier,
  location: v.location,
  pillars: PILLARS[v.slug]!,
}));

/** Every vendor slug of the fixture, ranked or not. */
export const ALL_VENDOR_SLUGS = [...RANKING.map((v) => v.slug), 'borealis', 'unscored', 'bare'];

/**
 * Peptides, imported in a scrambled order. By name (the API's order): BPC-157, Bremelanotide
 * (slug pt-141: name order differs from slug order), GHK-Cu, Ipamorelin, Semaglutide, TB-500,
 * Tirzepatide.
 */
export const PEPTIDES = [
  { slug: 'tirzepatide', name: 'Tirzepatide', category: 'metabolic', molecularWeight: '4813.5 g/mol' },
  {
    slug: 'bpc-157',
    name: 'BPC-157',
    category: 'healing',
    molecularWeight: '1419.5 g/mol',
    aliases: ['Body Protection Compound', 'PL 14736'],
  },
  {
    slug: 'tb-500',
    name: 'TB-500',
    category: 'healing',
    molecularWeight: '4963.4 g/mol',
    aliases: ['Thymosin Beta-4'],
  },
  { slug: 'semaglutide', name: 'Semaglutide', category: 'metabolic', molecularWeight: '4113.6 g/mol' },
  { slug: 'ipamorelin', name: 'Ipamorelin', category: 'growth-hormone', molecularWeight: '711.9 g/mol' },
  { slug: 'ghk-cu', name: 'GHK-Cu', category: 'cosmetic', molecularWeight: '403.9 g/mol' },
  { slug: 'pt-141', name: 'Bremelanotide', category: 'sexual-health', molecularWeight: '1025.2 g/mol' },
];

/**
 * Price listings (peptide ← vendors), and so each peptide's Variant A ranking (verified, scored
 * listers in ranking order):
 *   bpc-157      apex, novara, halfway (live + baseline), alpha2, nova, borealis✗, unscored✗, bare✗
 *                → apex 1, novara 2, halfway 3, alpha2 4, nova 5
 *   tb-500       beta, zeta, alpha2, borealis✗ → alpha2 1, zeta 2, beta 3 (the 80 tie group)
 *   tirzepatide  orion-one, orion-two, apex → apex 1, orion-two 2, orion-one 3
 *   semaglutide  borealis✗ → []          ghk-cu  unscored✗, bare✗ → []
 *   ipamorelin   nobody → []              pt-141  nova → nova 1
 * (✗: unverified or unscored, so not ranked.)
 */
export const LISTINGS: [vendor: string, peptide: string, source: 'live' | 'baseline', vialMg: number][] = [
  ['apex', 'bpc-157', 'live', 5],
  ['novara', 'bpc-157', 'baseline', 5],
  ['halfway', 'bpc-157', 'live', 5],
  ['halfway', 'bpc-157', 'baseline', 10],
  ['alpha2', 'bpc-157', 'baseline', 5],
  ['nova', 'bpc-157', 'live', 5],
  ['borealis', 'bpc-157', 'live', 5],
  ['unscored', 'bpc-157', 'baseline', 5],
  ['bare', 'bpc-157', 'baseline', 5],
  ['beta', 'tb-500', 'live', 2],
  ['zeta', 'tb-500', 'baseline', 2],
  ['alpha2', 'tb-500', 'baseline', 2],
  ['borealis', 'tb-500', 'baseline', 2],
  ['orion-one', 'tirzepatide', 'live', 10],
  ['orion-two', 'tirzepatide', 'baseline', 10],
  ['apex', 'tirzepatide', 'live', 10],
  ['borealis', 'semaglutide', 'live', 5],
  ['unscored', 'ghk-cu', 'baseline', 50],
  ['bare', 'ghk-cu', 'baseline', 50],
  ['nova', 'pt-141', 'baseline', 10],
];

/** Each peptide's expected ranking, by hand (see LISTINGS). */
export const PEPTIDE_RANKINGS: Record<string, { slug: string; score: number; rank: number }[]> = {
  'bpc-157': [
    { slug: 'apex', score: 91, rank: 1 },
    { slug: 'novara', score: 90, rank: 2 },
    { slug: 'halfway', score: 89, rank: 3 },
    { slug: 'alpha2', score: 80, rank: 4 },
    { slug: 'nova', score: 69, rank: 5 },
  ],
  'tb-500': [
    { slug: 'alpha2', score: 80, rank: 1 },
    { slug: 'zeta', score: 80, rank: 2 },
    { slug: 'beta', score: 80, rank: 3 },
  ],
  tirzepatide: [
    { slug: 'apex', score: 91, rank: 1 },
    { slug: 'orion-two', score: 79, rank: 2 },
    { slug: 'orion-one', score: 70, rank: 3 },
  ],
  semaglutide: [],
  'ghk-cu': [],
  ipamorelin: [],
  'pt-141': [{ slug: 'nova', score: 69, rank: 1 }],
};

/** The peptide library as /v1/peptides must show it (by name). */
export const LIBRARY = (
  [
    ['bpc-157', 'BPC-157', 'healing', 5, '1419.5 g/mol'],
    ['pt-141', 'Bremelanotide', 'sexual-health', 1, '1025.2 g/mol'],
    ['ghk-cu', 'GHK-Cu', 'cosmetic', 0, '403.9 g/mol'],
    ['ipamorelin', 'Ipamorelin', 'growth-hormone', 0, '711.9 g/mol'],
    ['semaglutide', 'Semaglutide', 'metabolic', 0, '4113.6 g/mol'],
    ['tb-500', 'TB-500', 'healing', 3, '4963.4 g/mol'],
    ['tirzepatide', 'Tirzepatide', 'metabolic', 3, '4813.5 g/mol'],
  ] as [string, string, string, number, string][]
).map(([slug, name, category, vendorCount, mw]) => ({
  slug,
  name,
  category,
  vendor_count: vendorCount,
  molecular_weight: mw,
}));

const batch = (
  vendorSlug: string,
  batchId: string,
  peptideSlug: string,
  status: 'approved' | 'pending' | 'rejected',
  extra: { purity?: number | null; testedAgoMs?: number; submittedAgoMs?: number; lab?: boolean } = {},
) => ({
  type: 'batch',
  vendorSlug,
  batchId,
  peptideSlug,
  status,
  ...(extra.purity !== undefined ? { purity: extra.purity } : {}),
  ...(extra.lab === false ? {} : { lab: LAB.slug }),
  ...(extra.testedAgoMs !== undefined ? { testedAt: iso(-extra.testedAgoMs) } : {}),
  ...(extra.submittedAgoMs !== undefined ? { submittedAt: iso(-extra.submittedAgoMs) } : {}),
  testMethod: 'HPLC',
});

/*
 * Batches. Mean tested purity of APPROVED batches with a purity:
 *   apex    99.1, 99.3, 98.7, 99.3 → 396.4 / 4 = 99.1 → "99.1%"  (pending 90 and rejected 50 ignored;
 *           with them the mean would be 536.4 / 6 = 89.4)
 *   novara  six × 98.5 + six × 99.5 = 1188 / 12 = 99 → "99%"    (".0" dropped)
 *   nova    97.2 (its pending batch claims 10: not tested evidence) → "97.2%"
 *   halfway 98.4 (its pending and rejected batches ignored) → "98.4%"
 *   alpha2 99.0 → "99%", zeta 98.8, beta 97.5, orion-two 99.6, orion-one 96.9: one approved batch each
 * Every vendor of A's ranking has a tested purity on record (decision 0016: a verified, scored
 * vendor without one is not ranked in Variant A; list-vendors.untested-purity.test.ts covers it).
 * borealis (unverified), unscored and bare have none beyond B-1.
 */
export const BATCH_RECORDS = [
  batch('apex', 'A-NEW', 'bpc-157', 'approved', {
    purity: 99.1,
    testedAgoMs: DAY_MS,
    submittedAgoMs: 20 * HOUR_MS,
  }),
  batch('apex', 'A-PEND', 'semaglutide', 'pending', { purity: 90, submittedAgoMs: 2 * DAY_MS }),
  // Tested 3 days ago, submitted 1 hour ago: ordered by its test date, not its submission.
  batch('apex', 'A-TB', 'tb-500', 'approved', {
    purity: 99.3,
    testedAgoMs: 3 * DAY_MS,
    submittedAgoMs: HOUR_MS,
  }),
  batch('apex', 'A-150', 'bpc-157', 'approved', { purity: 98.7, testedAgoMs: 150 * DAY_MS }),
  batch('apex', 'A-151', 'bpc-157', 'approved', { purity: 99.3, testedAgoMs: 151 * DAY_MS }),
  // The newest record of apex, but rejected: not evidence.
  batch('apex', 'A-REJ', 'bpc-157', 'rejected', { purity: 50, submittedAgoMs: 12 * HOUR_MS }),
  ...Array.from({ length: 12 }, (_, i) =>
    batch('novara', `N-${String(i + 1).padStart(2, '0')}`, 'bpc-157', 'approved', {
      purity: (i + 1) % 2 === 1 ? 98.5 : 99.5,
      testedAgoMs: (i + 1) * DAY_MS,
    }),
  ),
  batch('halfway', 'H-PEND', 'bpc-157', 'pending', { submittedAgoMs: DAY_MS, lab: false }),
  batch('halfway', 'H-OK', 'bpc-157', 'approved', { purity: 98.4, testedAgoMs: 2 * DAY_MS }),
  batch('alpha2', 'AL-1', 'tb-500', 'approved', { purity: 99, testedAgoMs: 4 * DAY_MS }),
  batch('zeta', 'Z-1', 'tb-500', 'approved', { purity: 98.8, testedAgoMs: 5 * DAY_MS }),
  batch('beta', 'BE-1', 'tb-500', 'approved', { purity: 97.5, testedAgoMs: 7 * DAY_MS }),
  batch('orion-two', 'O2-1', 'tirzepatide', 'approved', { purity: 99.6, testedAgoMs: 8 * DAY_MS }),
  batch('orion-one', 'O1-1', 'tirzepatide', 'approved', { purity: 96.9, testedAgoMs: 9 * DAY_MS }),
  batch('halfway', 'H-REJ', 'bpc-157', 'rejected', {
    purity: 99,
    testedAgoMs: 3 * DAY_MS,
    submittedAgoMs: 3 * DAY_MS,
  }),
  batch('nova', 'NV-PEND', 'bpc-157', 'pending', { purity: 10, submittedAgoMs: 4 * DAY_MS }),
  batch('nova', 'NV-1', 'pt-141', 'approved', { purity: 97.2, testedAgoMs: 6 * DAY_MS }),
  batch('borealis', 'B-1', 'bpc-157', 'approved', { purity: 99, testedAgoMs: DAY_MS }),
];

const vendor = (slug: string, name: string, location: string, extra: Record<string, unknown> = {}) => ({
  type: 'vendor',
  slug,
  name,
  location,
  verified: true,
  ...extra,
});

/** The full fixture dataset, in import-record form. */
export const FIXTURE_RECORDS: Record<string, unknown>[] = [
  { type: 'lab', slug: LAB.slug, name: LAB.name, trusted: true },
  ...PEPTIDES.map((p) => ({ type: 'peptide', ...p })),
  // Vendors in a scrambled order, so no ordering comes for free from insertion.
  vendor('nova', 'Nova Labs', 'Spain'),
  vendor('zeta', 'ALPHA', 'UK'),
  vendor('beta', 'Beta', 'Poland'),
  vendor('apex', 'Apex Labs', 'USA', { verifiedAt: APEX_VERIFIED_AT, listingPlan: 'premium' }),
  vendor('orion-one', 'Orion One', 'Norway'),
  vendor('alpha2', 'alpha', 'UK'),
  vendor('borealis', 'Borealis Research', 'Canada', { verified: false, pending: true }),
  vendor('halfway', 'Halfway Peptides', 'Germany'),
  vendor('orion-two', 'Orion Two', 'Norway'),
  vendor('novara', 'Novara Research', 'Canada'),
  vendor('unscored', 'Unscored Inc', 'France'),
  vendor('bare', 'Bare Co', 'Spain'),
  ...Object.entries(PILLARS).flatMap(([slug, p]) => overrides(slug, p)),
  ...overrides('beta', { score: 80 }),
  ...overrides('unscored', { coa: 90, purity: 90, sentiment: 90, transparency: 90, score: 99 }),
  ...LISTINGS.map(([vendorSlug, peptideSlug, source, vialMg]) => ({
    type: 'price',
    vendorSlug,
    peptideSlug,
    vialMg,
    source,
    totalUsd: 10 * vialMg,
    inStock: true,
    updatedAt: iso(-HOUR_MS),
  })),
  ...BATCH_RECORDS,
];

/** A scored, verified vendor record set with flat pillars (composite = n). */
export const scoredVendor = (slug: string, name: string, location: string, n: number) => [
  vendor(slug, name, location),
  ...overrides(slug, flat(n)),
];

export interface Fixture {
  ctx: TestContext;
  /** An enterprise key (Variant A limit 10,000 per hour). */
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

/** Every Variant A read endpoint, with a URL that answers 200 on the fixture. */
export const ENDPOINTS = [
  { name: 'GET /vendors', url: `${A}/vendors` },
  { name: 'GET /vendors/{slug}', url: `${A}/vendors/apex` },
  { name: 'GET /peptides', url: `${A}/peptides` },
  { name: 'GET /peptides/{slug}/vendors', url: `${A}/peptides/bpc-157/vendors` },
  { name: 'GET /search', url: `${A}/search?q=bpc` },
] as const;

/** Asserts a 200 JSON answer and returns the parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the callers
export function expectOk(res: ResponseLike): any {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json();
}

/** Asserts the list shape `{data, total[, page]}` with exactly those keys, and returns it. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the callers
export function expectList(res: LightMyRequestResponse, withPage: boolean): any {
  const body = expectOk(res);
  expect(Object.keys(body).sort()).toEqual(withPage ? ['data', 'page', 'total'] : ['data', 'total']);
  expect(Array.isArray(body.data)).toBe(true);
  expect(Number.isInteger(body.total)).toBe(true);
  return body;
}

/** Unix seconds of the end of the UTC hour containing `ms`. */
export const hourEndS = (ms: number): number => (Math.floor(ms / HOUR_MS) + 1) * 3600;

export const slugs = (items: { slug: string }[]): string[] => items.map((i) => i.slug);
