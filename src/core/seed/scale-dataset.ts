import { DAY_MS, HOUR_MS } from '../clock.ts';
import {
  type BatchImportRecord,
  emptyImportBatch,
  type ImportBatch,
  type PriceRecord,
} from '../import/records.ts';
import { PILLARS } from '../vendors/model.ts';
import { type Category, DEMO_PEPTIDES } from './demo-peptides.ts';
import { authorHandle, BODIES, fill, sentimentOf, TITLES } from './demo-reviews.ts';
import { createIsoFormatter } from './fast-iso.ts';
import { hash32, unitHash } from './prng.ts';
import { COUNTRIES, EXTRA_STEMS, VENDOR_WORDS_A, VENDOR_WORDS_B, VENDOR_WORDS_C } from './scale-words.ts';
import { pad, slugify } from './text.ts';

/**
 * Synthetic data for benchmarks (`purerank seed scale`). Every record is a pure function of its
 * index and the seed, so chunks are built on demand and only one is ever in memory.
 */

export interface ScaleOptions {
  vendors: number;
  batches: number;
  /** Default 2000. */
  peptides?: number;
  /** Default 0. */
  reviews?: number;
  seed?: number;
}

const LABS = 20;
const UNTRUSTED_LABS = 4;
const PRICES_PER_VENDOR = 3;
const VIALS = [2, 5, 10, 20];
const METHODS = ['HPLC', 'HPLC-MS', 'LC-MS', 'UPLC-MS'];
const SOURCES = ['vendor-upload', 'third-party', 'community'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

interface Stem {
  name: string;
  category: Category;
  mw: string;
  aliases: readonly string[];
  code: string;
}
const STEMS: readonly Stem[] = [
  ...DEMO_PEPTIDES,
  ...EXTRA_STEMS.map(([name, category, mw]) => ({
    name,
    category,
    mw,
    aliases: [],
    code: slugify(name).replaceAll('-', '').toUpperCase().slice(0, 6),
  })),
];

/**
 * Batch ID of the i-th scale batch. Injective even after the lookup's case folding: the format is
 * chosen by i % 4, each format has its own two-letter prefix and spells i out in full. Hence an
 * index ≥ `batches` always names a batch that does not exist.
 */
export function scaleBatchId(i: number): string {
  if (!Number.isSafeInteger(i) || i < 0)
    throw new RangeError(`batch index must be a non-negative integer: ${i}`);
  const n = pad(i, 7);
  const h = hash32(i, 0xba7c);
  switch (i % 4) {
    case 0:
      return `PR-${pad(20 + (h % 6), 2)}${pad(1 + ((h >>> 8) % 12), 2)}-${n}`;
    case 1:
      return `LOT ${n}`;
    case 2:
      return `ps-${n}-${LETTERS[h % 26]}`;
    default:
      return `QX${n}`;
  }
}

export const scaleLabSlug = (i: number): string => `scale-lab-${pad(i, 2)}`;

export function scalePeptideSlug(i: number): string {
  return slugify(peptideName(i));
}

function peptideName(i: number): string {
  const stem = STEMS[i % STEMS.length]!;
  return i < STEMS.length ? stem.name : `${stem.name}-${1000 + i}`;
}

export function scaleVendorName(i: number, width = 4): string {
  const h = hash32(i, 0x7e4d);
  const a = VENDOR_WORDS_A[h % VENDOR_WORDS_A.length]!;
  const b = VENDOR_WORDS_B[(h >>> 8) % VENDOR_WORDS_B.length]!;
  const c = VENDOR_WORDS_C[(h >>> 16) % VENDOR_WORDS_C.length]!;
  return `${a} ${b} ${c} ${pad(i, width)}`;
}

const checkCount = (name: string, n: number, min: number): void => {
  if (!Number.isSafeInteger(n) || n < min)
    throw new RangeError(`${name} must be an integer ≥ ${min}, got ${n}`);
};

/** Chunks in dependency order: labs + peptides, vendors (+ their pillar overrides), prices, batches, reviews. */
export function scaleDataset(opts: ScaleOptions, nowMs: number, chunkSize = 10_000): Generator<ImportBatch> {
  const peptides = opts.peptides ?? 2000;
  const reviews = opts.reviews ?? 0;
  checkCount('vendors', opts.vendors, opts.batches > 0 || reviews > 0 ? 1 : 0);
  checkCount('batches', opts.batches, 0);
  checkCount('peptides', peptides, 1);
  checkCount('reviews', reviews, 0);
  checkCount('chunkSize', chunkSize, 1);
  if (!Number.isFinite(nowMs)) throw new RangeError('nowMs must be a finite number');
  return generate({ ...opts, peptides, reviews, seed: opts.seed ?? 1 }, nowMs, chunkSize);
}

function* generate(opts: Required<ScaleOptions>, nowMs: number, size: number): Generator<ImportBatch> {
  const { vendors, batches, peptides, reviews, seed } = opts;
  const iso = createIsoFormatter();
  const at = (agoMs: number): string => iso(nowMs - agoMs);
  /** Uniform in [0, 1) for (index, field): `salt` keeps the fields of one record independent. */
  const u = (i: number, salt: number): number => unitHash(i, (seed * 0x3c6ef372) ^ salt);
  const int = (i: number, salt: number, lo: number, hi: number): number =>
    lo + Math.floor(u(i, salt) * (hi - lo + 1));
  const width = Math.max(4, String(vendors - 1).length);
  const vendorSlugs = Array.from({ length: vendors }, (_, i) => slugify(scaleVendorName(i, width)));
  /** The k-th of the (distinct) peptides vendor v sells. */
  const sold = (v: number, k: number): number => (hash32(v, seed ^ 0x5011) + k) % peptides;
  const soldCount = Math.min(PRICES_PER_VENDOR, peptides);
  // Slugging is the slow part of a batch record, so do it once per peptide, not per batch.
  const pepNames = Array.from({ length: peptides }, (_, i) => peptideName(i));
  const pepSlugs = pepNames.map(slugify);
  const labSlugs = Array.from({ length: LABS }, (_, l) => scaleLabSlug(l));

  yield* chunks(peptides, size, (b, i) => {
    if (i === 0) {
      for (let l = 0; l < LABS; l++) {
        const slug = scaleLabSlug(l);
        b.lab.push({
          type: 'lab',
          slug,
          name: `Scale Analytical ${pad(l, 2)}`,
          trusted: l >= UNTRUSTED_LABS,
          verifyUrl: `https://${slug}.example/verify`,
        });
      }
    }
    const stem = STEMS[i % STEMS.length]!;
    b.peptide.push({
      type: 'peptide',
      slug: pepSlugs[i]!,
      name: pepNames[i]!,
      category: stem.category,
      molecularWeight: `${stem.mw} g/mol`,
      aliases: i < STEMS.length ? [...stem.aliases] : [`${stem.code}${1000 + i}`],
    });
  });

  yield* chunks(vendors, size, (b, i) => {
    const slug = vendorSlugs[i]!;
    const verified = u(i, 10) < 0.8;
    const location = COUNTRIES[int(i, 11, 0, COUNTRIES.length - 1)]!;
    b.vendor.push({
      type: 'vendor',
      slug,
      name: scaleVendorName(i, width),
      location,
      description: `Synthetic benchmark vendor from ${location} stocking ${soldCount} research peptides.`,
      website: `https://${slug}.example`,
      listingPlan: u(i, 12) < 0.25 ? 'premium' : 'free',
      verified,
      pending: !verified && u(i, 13) < 0.5,
      verifiedAt: verified ? at(int(i, 14, DAY_MS, 900 * DAY_MS)) : null,
    });
    const base = int(i, 15, 45, 97);
    PILLARS.forEach((field, k) => {
      const value = Math.max(0, Math.min(100, base + int(i, 16 + k, -8, 8)));
      b.override.push({ type: 'override', vendorSlug: slug, field, value, reason: 'scale seed' });
    });
  });

  yield* chunks(vendors, Math.max(1, Math.floor(size / soldCount)), (b, v) => {
    for (let k = 0; k < soldCount; k++) {
      const j = v * PRICES_PER_VENDOR + k;
      const vialMg = VIALS[int(j, 30, 0, VIALS.length - 1)]!;
      const totalUsd = Math.round(vialMg * int(j, 31, 400, 2500)) / 100;
      const vendorSlug = vendorSlugs[v]!;
      const peptideSlug = pepSlugs[sold(v, k)]!;
      const price = (
        source: 'baseline' | 'live',
        usd: number,
        inStock: boolean,
        agoMs: number,
      ): PriceRecord => ({
        type: 'price',
        vendorSlug,
        peptideSlug,
        vialMg,
        source,
        totalUsd: usd,
        inStock,
        updatedAt: at(agoMs),
      });
      b.price.push(price('baseline', totalUsd, true, int(j, 32, HOUR_MS, 120 * DAY_MS)));
      if (u(j, 33) < 0.33) {
        const live = Math.round(totalUsd * (85 + int(j, 34, 0, 25))) / 100;
        b.price.push(price('live', live, u(j, 35) < 0.9, int(j, 36, HOUR_MS / 4, 5 * DAY_MS)));
      }
    }
  });

  yield* chunks(batches, size, (b, i) => {
    b.batch.push(scaleBatch(i));
  });

  yield* chunks(reviews, size, (b, i) => {
    const v = int(i, 60, 0, vendors - 1);
    const rating = [1, 2, 3, 4, 4, 5, 5, 5][int(i, 61, 0, 7)]!;
    const mood = sentimentOf(rating);
    const peptide = pepNames[sold(v, int(i, 62, 0, soldCount - 1))]!;
    let salt = 63;
    const pick = <T>(xs: readonly T[]): T => xs[int(i, salt++, 0, xs.length - 1)]!;
    b.review.push({
      type: 'review',
      id: `srev-${pad(i, 7)}`,
      vendorSlug: vendorSlugs[v]!,
      rating,
      title: fill(pick(TITLES[mood]), peptide),
      body: fill(pick(BODIES[mood]), peptide),
      author: authorHandle(pick, i),
      createdAt: at(int(i, 70, HOUR_MS, 730 * DAY_MS)),
    });
  });

  // Object literals only: spreading a base object here made generation ~100x slower in V8.
  function scaleBatch(i: number): BatchImportRecord {
    const v = int(i, 40, 0, vendors - 1);
    const vendorSlug = vendorSlugs[v]!;
    const batchId = scaleBatchId(i);
    const peptideSlug = pepSlugs[sold(v, i % soldCount)]!;
    const r = u(i, 41);
    // 70% approved and recent, 12% approved but stale (> 150 days), 10% pending, 8% rejected.
    if (r >= 0.82) {
      const status = r < 0.92 ? 'pending' : 'rejected';
      const submittedAt = at(int(i, 42, HOUR_MS, 60 * DAY_MS));
      return { type: 'batch', vendorSlug, batchId, peptideSlug, status, submittedAt };
    }
    const testedAgo = r < 0.7 ? int(i, 43, DAY_MS, 140 * DAY_MS) : int(i, 43, 160 * DAY_MS, 500 * DAY_MS);
    const lab = labSlugs[int(i, 44, 0, LABS - 1)]!;
    return {
      type: 'batch',
      vendorSlug,
      batchId,
      peptideSlug,
      purity: (970 + int(i, 45, 0, 29)) / 10,
      lab,
      testMethod: METHODS[i % METHODS.length]!,
      testedAt: at(testedAgo),
      source: SOURCES[int(i, 46, 0, SOURCES.length - 1)]!,
      sourceUrl: `https://${lab}.example/verify?report=${encodeURIComponent(batchId)}`,
      status: 'approved',
      submittedAt: at(testedAgo - int(i, 47, 0, Math.min(2 * DAY_MS, testedAgo - HOUR_MS))),
    };
  }
}

function* chunks(
  total: number,
  size: number,
  fill: (b: ImportBatch, i: number) => void,
): Generator<ImportBatch> {
  for (let start = 0; start < total; start += size) {
    const b = emptyImportBatch();
    const end = Math.min(total, start + size);
    for (let i = start; i < end; i++) fill(b, i);
    yield b;
  }
}
