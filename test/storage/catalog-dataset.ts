import type { ImportRecord } from '../../src/core/import/records.ts';
import { pillarOverrides } from './support.ts';

/**
 * One record of every type, hand-made so every read-back value is known:
 * - alpha: claimed by acme, pillars 90/80/70/60/50 → composite 27 + 20 + 10.5 + 9 + 7.5 = 74;
 *   approved batches 99.2 and 98.6 (mean 98.9); a rejected 40 and a pending batch do not count.
 * - beta: minimal vendor (defaults), unclaimed, no pillars → unscored, shares batch number AB-123.
 */
export const CATALOG: ImportRecord[] = [
  { type: 'account', name: 'acme', plan: 'pro' },
  { type: 'account', name: 'custom-co', plan: 'custom', rateLimitA: 10, rateLimitB: 20 },
  { type: 'lab', slug: 'janoshik', name: 'Janoshik Analytical', trusted: true, verifyUrl: 'https://janoshik.com/verify' },
  { type: 'lab', slug: 'colmaric', name: 'Colmaric' },
  {
    type: 'peptide',
    slug: 'bpc-157',
    name: 'BPC-157',
    category: 'healing',
    molecularWeight: '1419.5 g/mol',
    aliases: ['PL 14736', 'Body Protection Compound', 'bpc157'],
  },
  { type: 'peptide', slug: 'aod-9604', name: 'AOD-9604', category: 'metabolic', molecularWeight: '1815.1 g/mol' },
  {
    type: 'vendor',
    slug: 'alpha',
    name: 'Alpha Peptides',
    location: 'Canada',
    description: 'Third-party tested.',
    website: 'https://alpha.example',
    listingPlan: 'premium',
    verified: true,
    pending: false,
    verifiedAt: '2026-01-15T00:00:00.000Z',
  },
  { type: 'vendor', slug: 'beta', name: 'Beta Labs' },
  { type: 'claim', vendorSlug: 'alpha', account: 'acme' },
  {
    type: 'price',
    vendorSlug: 'alpha',
    peptideSlug: 'bpc-157',
    vialMg: 5,
    source: 'baseline',
    totalUsd: 45,
    inStock: true,
    updatedAt: '2026-05-01T00:00:00.000Z',
  },
  {
    type: 'price',
    vendorSlug: 'alpha',
    peptideSlug: 'bpc-157',
    vialMg: 5,
    source: 'live',
    totalUsd: 42.5,
    inStock: false,
    updatedAt: '2026-05-31T00:00:00.000Z',
  },
  {
    type: 'price',
    vendorSlug: 'beta',
    peptideSlug: 'bpc-157',
    vialMg: 10,
    source: 'baseline',
    totalUsd: 80,
    inStock: true,
    updatedAt: '2026-05-02T00:00:00.000Z',
  },
  {
    type: 'batch',
    vendorSlug: 'alpha',
    batchId: ' AB-123 ',
    peptideSlug: 'bpc-157',
    purity: 99.2,
    lab: 'janoshik',
    testMethod: 'HPLC',
    testedAt: '2026-04-01T00:00:00.000Z',
    source: 'vendor',
    sourceUrl: 'https://janoshik.com/tests/1',
    status: 'approved',
  },
  {
    type: 'batch',
    vendorSlug: 'alpha',
    batchId: 'AB-124',
    peptideSlug: 'aod-9604',
    purity: 98.6,
    lab: 'colmaric',
    testMethod: 'HPLC-MS',
    testedAt: '2026-03-01T00:00:00.000Z',
    status: 'approved',
  },
  { type: 'batch', vendorSlug: 'alpha', batchId: 'REJ-1', peptideSlug: 'bpc-157', purity: 40, status: 'rejected' },
  {
    type: 'batch',
    vendorSlug: 'alpha',
    batchId: 'PEND-1',
    peptideSlug: 'bpc-157',
    status: 'pending',
    submittedAt: '2026-05-30T00:00:00.000Z',
  },
  {
    type: 'batch',
    vendorSlug: 'beta',
    batchId: 'ab-123',
    peptideSlug: 'aod-9604',
    status: 'pending',
    submittedAt: '2026-05-29T00:00:00.000Z',
  },
  {
    type: 'review',
    id: 'rev-1',
    vendorSlug: 'alpha',
    rating: 5,
    title: 'Great',
    body: 'Fast shipping.',
    author: 'sam',
    createdAt: '2026-05-10T00:00:00.000Z',
  },
  { type: 'reply', reviewId: 'rev-1', body: 'Thanks!', createdAt: '2026-05-11T00:00:00.000Z' },
  ...pillarOverrides('alpha', { coa: 90, purity: 80, sentiment: 70, transparency: 60, experience: 50 }),
];

export const ALPHA_PILLARS = { coa: 90, purity: 80, sentiment: 70, transparency: 60, experience: 50 };
export const ALPHA_SCORE = 74;
