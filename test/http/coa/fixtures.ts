import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type CoaConfig, DEFAULTS } from '../../../src/config/config.ts';
import { DAY_MS } from '../../../src/core/clock.ts';
import type { CoaFacts } from '../../support/coa/facts.ts';
import { type CoaOptions, makeCoa } from '../../support/coa/make-coa.ts';
import type { CoaTemplate } from '../../support/coa/template.ts';
import { northwind } from '../../support/coa/templates/northwind.ts';
import { ADMIN_TOKEN, bearer, createTestContext, T0, type TestContext } from '../../support/context.ts';
import type { Dialect } from '../../support/databases.ts';
import { type CoaForm, postCoa, type VerificationBody, verificationUrl } from './form.ts';

export { T0 };
export const iso = (offsetMs = 0): string => new Date(T0 + offsetMs).toISOString();
/** Midnight UTC of an ISO day, as the records on file store test dates. */
export const dayIso = (day: string): string => `${day}T00:00:00.000Z`;

/*
 * The registry the CoA suites verify against (T0 = 2026-06-01T12:00Z; the fixtures' documents are
 * tested 2026-03-12 unless a test says otherwise, 81 days before T0: current, not stale).
 *
 * Labs (named as the fixtures' letterheads print them):
 *   northwind  Northwind Analytical Laboratories  trusted, verification page taking the document's key
 *   meridian   Meridian Peptide Testing, Inc.     trusted, verification page without a key
 *   halcyon    Halcyon Bioanalytical Services     in the registry, not trusted
 *   kovalent   Kovalent Analytik GmbH             flagged (issues forged reports)
 *   bluepoint  Bluepoint Labs LLC                 trusted
 * Vendors: aurora "Aurora Peptide Works" (lists bpc-157, tb-500, semaglutide), helix "Helix Research
 *   Supply", acme "Acme Peptides".
 * Approved records on file:
 *   aurora NW-1001  bpc-157     99.2  northwind  2026-03-12
 *   aurora MR-2002  tb-500      98.7  meridian   2026-03-12
 *   aurora BP-5005  bpc-157     99.1  bluepoint  2026-03-12
 *   helix  HX-3003  bpc-157     99.0  northwind  2026-03-12
 * A pending submission: helix HX-4004 (bpc-157).
 */
export const NORTHWIND_VERIFY = 'https://verify.northwind-labs.example/coa?code={key}';
export const MERIDIAN_VERIFY = 'https://meridian-testing.example/verify';
export const TEST_DAY = '2026-03-12';

const approved = (vendorSlug: string, batchId: string, peptideSlug: string, purity: number, lab: string) => ({
  type: 'batch',
  vendorSlug,
  batchId,
  peptideSlug,
  purity,
  lab,
  testMethod: 'HPLC',
  testedAt: dayIso(TEST_DAY),
  status: 'approved',
});

export const REGISTRY: Record<string, unknown>[] = [
  {
    type: 'lab',
    slug: 'northwind',
    name: 'Northwind Analytical Laboratories',
    trusted: true,
    verifyUrl: NORTHWIND_VERIFY,
  },
  {
    type: 'lab',
    slug: 'meridian',
    name: 'Meridian Peptide Testing, Inc.',
    trusted: true,
    verifyUrl: MERIDIAN_VERIFY,
  },
  { type: 'lab', slug: 'halcyon', name: 'Halcyon Bioanalytical Services', trusted: false },
  { type: 'lab', slug: 'kovalent', name: 'Kovalent Analytik GmbH', trusted: false, flagged: true },
  { type: 'lab', slug: 'bluepoint', name: 'Bluepoint Labs LLC', trusted: true },
  {
    type: 'peptide',
    slug: 'bpc-157',
    name: 'BPC-157',
    category: 'healing',
    molecularWeight: '1419.5 g/mol',
    aliases: ['Body Protection Compound 157'],
  },
  {
    type: 'peptide',
    slug: 'tb-500',
    name: 'TB-500',
    category: 'recovery',
    molecularWeight: '4963.4 g/mol',
    aliases: ['Thymosin Beta-4'],
  },
  {
    type: 'peptide',
    slug: 'semaglutide',
    name: 'Semaglutide',
    category: 'metabolic',
    molecularWeight: '4113.6 g/mol',
  },
  {
    type: 'vendor',
    slug: 'aurora',
    name: 'Aurora Peptide Works',
    location: 'USA',
    verified: true,
    verifiedAt: iso(-300 * DAY_MS),
  },
  { type: 'vendor', slug: 'helix', name: 'Helix Research Supply', location: 'Canada' },
  { type: 'vendor', slug: 'acme', name: 'Acme Peptides', location: 'USA' },
  ...['bpc-157', 'tb-500', 'semaglutide'].map((peptideSlug) => ({
    type: 'price',
    vendorSlug: 'aurora',
    peptideSlug,
    vialMg: 5,
    source: 'baseline',
    totalUsd: 60,
    inStock: true,
    updatedAt: iso(-10 * DAY_MS),
  })),
  {
    type: 'price',
    vendorSlug: 'helix',
    peptideSlug: 'bpc-157',
    vialMg: 5,
    source: 'baseline',
    totalUsd: 55,
    inStock: true,
    updatedAt: iso(-10 * DAY_MS),
  },
  approved('aurora', 'NW-1001', 'bpc-157', 99.2, 'northwind'),
  approved('aurora', 'MR-2002', 'tb-500', 98.7, 'meridian'),
  approved('aurora', 'BP-5005', 'bpc-157', 99.1, 'bluepoint'),
  approved('helix', 'HX-3003', 'bpc-157', 99.0, 'northwind'),
  {
    type: 'batch',
    vendorSlug: 'helix',
    batchId: 'HX-4004',
    peptideSlug: 'bpc-157',
    status: 'pending',
    submittedAt: iso(-2 * DAY_MS),
  },
];

/** A CoA of the fixtures' lab templates, tested on TEST_DAY for Aurora unless the facts say otherwise. */
export const coa = (
  facts: Partial<CoaFacts> = {},
  template: CoaTemplate = northwind,
  options: CoaOptions = {},
) => makeCoa(template, { testDate: TEST_DAY, client: 'Aurora Peptide Works', ...facts }, options);

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export interface CoaFixture {
  ctx: TestContext;
  /** An enterprise key of the account OWNER. */
  key: string;
  /** Uploads with `key` unless another is given. */
  upload(form: CoaForm, key?: string): Promise<LightMyRequestResponse>;
  get(id: string, key?: string): Promise<LightMyRequestResponse>;
  admin(method: 'GET' | 'POST', url: string): Promise<LightMyRequestResponse>;
  /** Variant B's batch lookup state (`verified`, `pending`, `missing`, …). */
  batchState(batchId: string, vendor?: string): Promise<string>;
  pendingBatchIds(): Promise<string[]>;
  events(): Promise<{ seq: number; type: string; data: Record<string, unknown> }[]>;
  /** The account's stored extraction of a file (null: nothing stored for it). */
  storedFor(file: Uint8Array, account?: string): Promise<unknown>;
  dataVersion(): number;
}

export const OWNER = 'coa-owner';

export async function setupCoa(
  dialect: Dialect,
  coaConfig: Partial<CoaConfig> = {},
  records: Record<string, unknown>[] = REGISTRY,
): Promise<CoaFixture> {
  const ctx = await createTestContext(dialect, { config: { coa: { ...DEFAULTS.coa, ...coaConfig } } });
  try {
    const loaded = await ctx.load(records);
    expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
  } catch (e) {
    await ctx.close();
    throw e;
  }
  const key = await ctx.keyFor('enterprise', OWNER);
  const admin = (method: 'GET' | 'POST', url: string) =>
    ctx.app.inject({ method, url: `/admin/v1${url}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return {
    ctx,
    key,
    upload: (form, k = key) => postCoa(ctx, k, form),
    get: (id, k = key) => ctx.app.inject({ url: verificationUrl(id), headers: bearer(k) }),
    admin,
    async batchState(batchId, vendor) {
      const q = vendor ? `?vendor=${vendor}` : '';
      const res = await ctx.app.inject({
        url: `/api/v1/batches/${encodeURIComponent(batchId)}${q}`,
        headers: bearer(key),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.state;
    },
    async pendingBatchIds() {
      const res = await admin('GET', '/batches/pending?limit=200');
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json()
        .data.map((b: { vendorSlug: string; batchId: string }) => `${b.vendorSlug}/${b.batchId}`);
    },
    async events() {
      const res = await admin('GET', '/events?limit=1000');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    },
    async storedFor(file, account = OWNER) {
      const a = await ctx.container.store.accounts.findByName(account);
      if (!a) throw new Error(`no account ${account}`);
      return ctx.container.store.coa.findExtraction(a.id, sha256(file));
    },
    dataVersion: () => ctx.container.freshness.state.dataVersion,
  };
}

/** Reads a verification back and checks it is the one given (the same body, review state aside). */
export async function expectStored(
  f: CoaFixture,
  v: VerificationBody,
  key = f.key,
): Promise<VerificationBody> {
  const res = await f.get(v.verification_id, key);
  expect(res.statusCode, res.body).toBe(200);
  const again = res.json() as VerificationBody;
  const { review: _a, ...rest } = again;
  const { review: _b, ...orig } = v;
  expect(rest).toEqual(orig);
  return again;
}
