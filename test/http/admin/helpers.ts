import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import { ADMIN_TOKEN, bearer, createTestContext, T0, type TestContext } from '../../support/context.ts';
import type { Dialect } from '../../support/databases.ts';

export const ADMIN = '/admin/v1';
export const adminAuth = { authorization: `Bearer ${ADMIN_TOKEN}` };
export const iso = (offsetMs = 0): string => new Date(T0 + offsetMs).toISOString();

export const OWNER = 'Owner One';
export const OTHER = 'Other Account';
export const LAB = 'janoshik';

/*
 * A small catalog for the operator suites:
 *   apex      verified, claimed by OWNER, lists bpc-157 and tb-500 (baseline), one approved batch of
 *             bpc-157 (so it is scored), a complete pending submission TB-2 of tb-500 (approving it
 *             raises CoA coverage from 1/2 to 2/2), a rejected REJ-1, review rev-apex-1.
 *   borealis  unverified, unclaimed, one approved batch, a pending PEND-7 with no test facts,
 *             a pending batch whose id needs URL-encoding, review rev-bor-1.
 *   bare      no evidence: not scored.
 */
export const FIXTURE: Record<string, unknown>[] = [
  { type: 'account', name: OWNER, plan: 'pro' },
  { type: 'account', name: OTHER, plan: 'pro' },
  { type: 'lab', slug: LAB, name: 'Janoshik Analytical', trusted: true },
  { type: 'peptide', slug: 'bpc-157', name: 'BPC-157', category: 'healing', molecularWeight: '1419.5 g/mol' },
  { type: 'peptide', slug: 'tb-500', name: 'TB-500', category: 'recovery', molecularWeight: '4963.4 g/mol' },
  {
    type: 'vendor',
    slug: 'apex',
    name: 'Apex Labs',
    location: 'USA',
    description: 'Apex.',
    verified: true,
    verifiedAt: iso(-200 * DAY_MS),
  },
  { type: 'vendor', slug: 'borealis', name: 'Borealis Research', location: 'Canada' },
  { type: 'vendor', slug: 'bare', name: 'Bare' },
  { type: 'claim', vendorSlug: 'apex', account: OWNER },
  ...[
    ['apex', 'bpc-157', 5, 60],
    ['apex', 'tb-500', 5, 70],
    ['borealis', 'bpc-157', 5, 50],
  ].map(([vendorSlug, peptideSlug, vialMg, totalUsd]) => ({
    type: 'price',
    vendorSlug,
    peptideSlug,
    vialMg,
    source: 'baseline',
    totalUsd,
    inStock: true,
    updatedAt: iso(-10 * DAY_MS),
  })),
  {
    type: 'batch',
    vendorSlug: 'apex',
    batchId: 'BPC-001',
    peptideSlug: 'bpc-157',
    purity: 99.2,
    lab: LAB,
    testMethod: 'HPLC',
    testedAt: iso(-10 * DAY_MS),
    source: 'vendor-upload',
    sourceUrl: 'https://apex.example.com/coa/1.pdf',
    status: 'approved',
  },
  {
    type: 'batch',
    vendorSlug: 'apex',
    batchId: 'TB-2',
    peptideSlug: 'tb-500',
    purity: 99.0,
    lab: LAB,
    testMethod: 'HPLC-MS',
    testedAt: iso(-3 * DAY_MS),
    sourceUrl: 'https://apex.example.com/coa/2.pdf',
    status: 'pending',
    submittedAt: iso(-2 * DAY_MS),
  },
  {
    type: 'batch',
    vendorSlug: 'apex',
    batchId: 'REJ-1',
    peptideSlug: 'bpc-157',
    status: 'rejected',
    submittedAt: iso(-5 * DAY_MS),
  },
  {
    type: 'batch',
    vendorSlug: 'borealis',
    batchId: 'BOR-1',
    peptideSlug: 'bpc-157',
    purity: 98.5,
    lab: LAB,
    testMethod: 'HPLC',
    testedAt: iso(-40 * DAY_MS),
    status: 'approved',
  },
  {
    type: 'batch',
    vendorSlug: 'borealis',
    batchId: 'PEND-7',
    peptideSlug: 'bpc-157',
    status: 'pending',
    submittedAt: iso(-3 * DAY_MS),
  },
  {
    type: 'batch',
    vendorSlug: 'borealis',
    batchId: 'LOT/2026#A?1',
    peptideSlug: 'bpc-157',
    status: 'pending',
    submittedAt: iso(-1 * DAY_MS),
  },
  {
    type: 'review',
    id: 'rev-apex-1',
    vendorSlug: 'apex',
    rating: 5,
    title: 'Great',
    body: 'Fast shipping.',
    author: 'Jo',
    createdAt: iso(-20 * DAY_MS),
  },
  {
    type: 'review',
    id: 'rev-bor-1',
    vendorSlug: 'borealis',
    rating: 3,
    title: 'OK',
    body: 'Fine.',
    author: 'Al',
    createdAt: iso(-20 * DAY_MS),
  },
];

export interface AdminFixture {
  ctx: TestContext;
  /** An enterprise key for the public variants. */
  key: string;
  /** An admin request; `body` is sent as JSON. */
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** A Variant B read with the enterprise key. */
  publicB(url: string): Promise<LightMyRequestResponse>;
  /** Every event in the outbox, oldest first. */
  events(query?: string): Promise<EventOut[]>;
  /** The composite Variant B shows (null while unscored). */
  publicScore(slug: string): Promise<number | null>;
  dataVersion(): number;
}

export interface EventOut {
  seq: number;
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown> & { vendor_slug: string };
}

export async function setupAdmin(dialect: Dialect, records = FIXTURE): Promise<AdminFixture> {
  const ctx = await createTestContext(dialect);
  if (records.length) {
    const loaded = await ctx.load(records);
    expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
  }
  const key = await ctx.keyFor('enterprise');
  const call: AdminFixture['call'] = (method, url, body, headers = {}) =>
    body === undefined
      ? ctx.app.inject({ method, url: `${ADMIN}${url}`, headers: { ...adminAuth, ...headers } })
      : ctx.app.inject({
          method,
          url: `${ADMIN}${url}`,
          headers: { ...adminAuth, 'content-type': 'application/json', ...headers },
          payload: JSON.stringify(body),
        });
  const publicB = (url: string) => ctx.app.inject({ url: `/api/v1${url}`, headers: bearer(key) });
  return {
    ctx,
    key,
    call,
    publicB,
    async events(query = '') {
      const res = await call('GET', `/events?limit=1000${query}`);
      expect(res.statusCode).toBe(200);
      return res.json().data;
    },
    async publicScore(slug) {
      const res = await publicB(`/vendors/${slug}`);
      expect(res.statusCode).toBe(200);
      return res.json().data.score;
    },
    dataVersion: () => ctx.container.freshness.state.dataVersion,
  };
}

/** Asserts the documented error body and returns its message. */
export function expectError(res: LightMyRequestResponse, status: number, code: string): string {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toEqual({
    error: { code, message: expect.any(String), status, request_id: expect.any(String) },
  });
  return body.error.message;
}
