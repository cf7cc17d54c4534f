import { DAY_MS, HOUR_MS } from '../core/clock.ts';
import {
  type BatchImportRecord,
  emptyImportBatch,
  type ImportBatch,
  type PriceRecord,
} from '../core/import/records.ts';
import { PILLARS } from '../core/vendors/model.ts';
import { type Category, DEMO_PEPTIDES } from './demo-peptides.ts';
import { authorHandle, BODIES, fill, sentimentOf, TITLES } from './demo-reviews.ts';
import { createIsoFormatter } from './fast-iso.ts';
import { asRounds, earlierVersions, type HistoryShape } from './price-history-rounds.ts';
import { hash32, Random, unitHash } from './prng.ts';
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
  /** Default REVIEWS_PER_VENDOR × vendors (200,000 for 10,000 vendors). */
  reviews?: number;
  /**
   * Days of price history written before the current prices (default SCALE_HISTORY_DAYS; 0 for
   * none). The current prices, and every other record, are the same whatever it is.
   */
  priceHistoryDays?: number;
  seed?: number;
}

/**
 * Bumped whenever the generator's output changes for the same options, so a stored scale database
 * (the bench's `.bench/scale.db`) can tell that it is out of date.
 */
export const SCALE_DATASET_VERSION = 3;
/** Days of price history the scale dataset carries by default, as the demo does (issue [10]). */
export const SCALE_HISTORY_DAYS = 90;
/** Reviews per vendor when `reviews` is not given. */
export const REVIEWS_PER_VENDOR = 20;
/** One vendor in this many has an operator override (a composite or one pillar), with a reason. */
export const OVERRIDE_EVERY = 200;
/** Share of vendors that are new on the platform: submitted batches only, none approved yet (unscored). */
export const NEWCOMER_SHARE = 0.02;

const LABS = 20;
const UNTRUSTED_LABS = 4;
/** A vendor lists between MIN_LISTED and MAX_LISTED peptides (fewer when there are fewer peptides). */
const MIN_LISTED = 2;
const MAX_LISTED = 6;
const VIALS = [2, 5, 10, 20];
const METHODS = ['HPLC', 'HPLC-MS', 'LC-MS', 'UPLC-MS'];
const SOURCES = ['vendor-upload', 'third-party', 'community'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Days after testing beyond which a batch is stale (the default of BATCH_STALE_DAYS). */
const STALE_DAYS = 150;
/**
 * Vendors whose listings share a price chunk. The import writer reads the stored rows of a chunk's
 * listings by vendor × peptide (storage/stores/price-history.ts), so on SQLite a chunk costs about
 * vendors × distinct peptides index probes: 833 vendors (10,000 records) cost ~0.2 s a chunk, 100
 * a hundredth of that. Measured on the 10,000-vendor seed: 90 days of history add ~8 s with 833,
 * ~3 s with 100 (PostgreSQL, which pays per statement instead, is about the same either way).
 */
const PRICE_CHUNK_VENDORS = 100;
/**
 * Earlier prices: within 6 % of the current one (a drift of a few percent), in cents, out of stock
 * one version in ten (src/seed/price-history-rounds.ts).
 */
const HISTORY_SHAPE: Omit<HistoryShape, 'iso'> = {
  low: 0.94,
  spread: 0.12,
  round: (usd) => Math.max(0.01, Math.round(usd * 100) / 100),
};

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

/** Whether scale vendor `v` carries an operator override (every OVERRIDE_EVERY-th, from the 8th). */
export const scaleVendorHasOverride = (v: number): boolean => v % OVERRIDE_EVERY === 7;

const checkCount = (name: string, n: number, min: number): void => {
  if (!Number.isSafeInteger(n) || n < min)
    throw new RangeError(`${name} must be an integer ≥ ${min}, got ${n}`);
};

/**
 * Chunks in dependency order: labs + peptides, vendors (+ a few overrides), prices (each chunk of
 * listings preceded by their earlier versions over `priceHistoryDays`), batches, reviews. Scores are
 * meant to come from the evidence (docs/methodology.md), so the evidence is shaped per vendor:
 * each vendor has a quality that moves its purity level and spread, its share of trusted labs and
 * of public CoA links, its ratings and how much of its catalog it keeps tested; an activity
 * (log-normal) that sets how many batches and reviews it has; and a history span that bounds every
 * date on its record. A few vendors are newcomers with nothing approved (unscored), some are
 * dormant (every CoA stale).
 */
export function scaleDataset(opts: ScaleOptions, nowMs: number, chunkSize = 10_000): Generator<ImportBatch> {
  const peptides = opts.peptides ?? 2000;
  const reviews = opts.reviews ?? REVIEWS_PER_VENDOR * opts.vendors;
  checkCount('vendors', opts.vendors, opts.batches > 0 || reviews > 0 ? 1 : 0);
  checkCount('batches', opts.batches, 0);
  checkCount('peptides', peptides, 1);
  checkCount('reviews', reviews, 0);
  const priceHistoryDays = opts.priceHistoryDays ?? SCALE_HISTORY_DAYS;
  checkCount('priceHistoryDays', priceHistoryDays, 0);
  checkCount('chunkSize', chunkSize, 1);
  if (!Number.isFinite(nowMs)) throw new RangeError('nowMs must be a finite number');
  return generate({ ...opts, peptides, reviews, priceHistoryDays, seed: opts.seed ?? 1 }, nowMs, chunkSize);
}

function* generate(opts: Required<ScaleOptions>, nowMs: number, size: number): Generator<ImportBatch> {
  const { vendors, batches, peptides, reviews, priceHistoryDays, seed } = opts;
  const iso = createIsoFormatter();
  const at = (agoMs: number): string => iso(nowMs - agoMs);
  /** Uniform in [0, 1) for (index, field): `salt` keeps the fields of one record independent. */
  const u = (i: number, salt: number): number => unitHash(i, (seed * 0x3c6ef372) ^ salt);
  const int = (i: number, salt: number, lo: number, hi: number): number =>
    lo + Math.floor(u(i, salt) * (hi - lo + 1));
  /** Standard normal (Box–Muller) for (index, field); uses salts `salt` and `salt + 1`. */
  const normal = (i: number, salt: number): number =>
    Math.sqrt(-2 * Math.log(1 - u(i, salt))) * Math.cos(2 * Math.PI * u(i, salt + 1));
  const width = Math.max(4, String(vendors - 1).length);
  const vendorSlugs = Array.from({ length: vendors }, (_, i) => slugify(scaleVendorName(i, width)));

  // Per-vendor traits, derived once (a few dozen bytes per vendor).
  const quality = new Float64Array(vendors);
  /** Running sum of activity: batches and reviews pick their vendor in proportion to it. */
  const activity = new Float64Array(vendors);
  /** Days the vendor has been on record: no date of its evidence is older. */
  const historyDays = new Float64Array(vendors);
  /** Peptides listed, and how many of them it has batches of (a prefix of its list). */
  const listed = new Uint8Array(vendors);
  const testedCount = new Uint8Array(vendors);
  /** Newcomers have submitted batches only, none approved: they stay unscored. */
  const newcomer = new Uint8Array(vendors);
  /** Share of submitted batches approved; of approved ones, share tested more than STALE_DAYS ago. */
  const approvedShare = new Float64Array(vendors);
  const staleShare = new Float64Array(vendors);
  /** Tested purity: mean level and spread (standard deviation), percent. */
  const purityLevel = new Float64Array(vendors);
  const puritySpread = new Float64Array(vendors);
  /** Shares of approved batches tested by a trusted lab and with a public CoA link. */
  const trustedShare = new Float64Array(vendors);
  const linkShare = new Float64Array(vendors);
  /** Mean review rating, stars. */
  const ratingMean = new Float64Array(vendors);
  let acc = 0;
  for (let v = 0; v < vendors; v++) {
    // The mean of two uniforms: most vendors are middling, some very good or poor.
    const q = (u(v, 20) + u(v, 21)) / 2;
    quality[v] = q;
    const history = 30 + 1070 * u(v, 23) ** 0.8;
    historyDays[v] = history;
    const isNew = u(v, 24) < NEWCOMER_SHARE;
    newcomer[v] = isNew ? 1 : 0;
    acc += Math.exp(0.8 * normal(v, 26)) * (isNew ? 0.05 : 1);
    activity[v] = acc;
    const n = Math.min(peptides, MIN_LISTED + Math.floor((MAX_LISTED - MIN_LISTED + 1) * u(v, 28) ** 1.5));
    listed[v] = n;
    testedCount[v] = Math.max(1, Math.round(n * (0.35 + 0.65 * q)));
    approvedShare[v] = isNew ? 0 : 0.7 + 0.22 * q;
    // Stale batches need a history longer than STALE_DAYS; a dormant vendor (5%) has only stale ones.
    const dormant = history > STALE_DAYS + 70 && u(v, 25) < 0.05;
    staleShare[v] = history <= STALE_DAYS + 20 ? 0 : dormant ? 1 : 0.04 + 0.35 * (1 - q) * u(v, 34);
    purityLevel[v] = 96 + 3.6 * q;
    puritySpread[v] = 0.15 + 1.3 * (1 - q) * u(v, 31);
    trustedShare[v] = 0.35 + 0.6 * (0.5 * q + 0.5 * u(v, 32));
    linkShare[v] = 0.1 + 0.85 * (0.5 * q + 0.5 * u(v, 33));
    // A vendor's mean rating follows its quality, with its own offset.
    ratingMean[v] = 1.8 + 3 * (0.7 * q + 0.3 * u(v, 29));
  }
  /** The vendor whose activity interval holds x ∈ [0, 1). */
  const vendorAt = (x: number): number => {
    const target = x * acc;
    let lo = 0;
    let hi = vendors - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (activity[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  /** The k-th of the (distinct) peptides vendor v lists, k < listed[v] ≤ peptides. */
  const sold = (v: number, k: number): number => (hash32(v, seed ^ 0x5011) + k) % peptides;
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
    const q = quality[i]!;
    const verified = !newcomer[i] && u(i, 10) < 0.65 + 0.3 * q;
    const location = COUNTRIES[int(i, 11, 0, COUNTRIES.length - 1)]!;
    b.vendor.push({
      type: 'vendor',
      slug,
      name: scaleVendorName(i, width),
      location,
      description:
        u(i, 13) < 0.08
          ? ''
          : `Synthetic benchmark vendor from ${location} stocking ${listed[i]} research peptides.`,
      website: u(i, 14) < 0.15 ? null : `https://${slug}.example`,
      listingPlan: u(i, 12) < 0.25 ? 'premium' : 'free',
      verified,
      pending: !verified && u(i, 15) < 0.5,
      verifiedAt: verified ? at(int(i, 16, DAY_MS, Math.floor(historyDays[i]! * DAY_MS))) : null,
    });
    if (scaleVendorHasOverride(i)) {
      const field = u(i, 17) < 0.5 ? 'score' : PILLARS[int(i, 18, 0, PILLARS.length - 1)]!;
      b.override.push({
        type: 'override',
        vendorSlug: slug,
        field,
        value: int(i, 19, 30, 98),
        reason: `scale seed: operator correction of ${field}`,
      });
    }
  });

  // At most two price rows (baseline, live) per listing: chunks stay within `size` records. With a
  // price history, a chunk's listings are first written as their earlier versions, one chunk per
  // round (the first holds every listing of the chunk, so the set of listings is the same from its
  // first write on), then as their current records: the import writer keeps each move in
  // price_changes, as a feed's writes would over time. Each listing draws its history from a stream
  // of its own, so the history does not depend on the chunk size. A chunk holds at most
  // PRICE_CHUNK_VENDORS vendors' listings.
  const historyStart = nowMs - priceHistoryDays * DAY_MS;
  const shape: HistoryShape = { ...HISTORY_SHAPE, iso };
  const historySalt = (seed * 0x3c6ef372) ^ 0x4157;
  let versions: PriceRecord[][] = [];
  const withHistory = (c: PriceRecord, stream: number): PriceRecord => {
    if (priceHistoryDays > 0)
      versions.push(earlierVersions(c, historyStart, new Random(hash32(stream, historySalt)), shape));
    return c;
  };
  const listings = (b: ImportBatch, v: number): void => {
    for (let k = 0; k < listed[v]!; k++) {
      const j = v * MAX_LISTED + k;
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
      b.price.push(withHistory(price('baseline', totalUsd, true, int(j, 32, HOUR_MS, 120 * DAY_MS)), 2 * j));
      if (u(j, 33) < 0.33) {
        const live = Math.round(totalUsd * (85 + int(j, 34, 0, 25))) / 100;
        b.price.push(
          withHistory(price('live', live, u(j, 35) < 0.9, int(j, 36, HOUR_MS / 4, 5 * DAY_MS)), 2 * j + 1),
        );
      }
    }
  };
  const perChunk = Math.max(1, Math.min(PRICE_CHUNK_VENDORS, Math.floor(size / (2 * MAX_LISTED))));
  for (const current of chunks(vendors, perChunk, listings)) {
    for (const round of asRounds(versions)) {
      const b = emptyImportBatch();
      b.price = round;
      yield b;
    }
    versions = [];
    yield current;
  }

  yield* chunks(batches, size, (b, i) => {
    b.batch.push(scaleBatch(i));
  });

  yield* chunks(reviews, size, (b, i) => {
    const v = vendorAt(u(i, 60));
    const rating = Math.max(1, Math.min(5, Math.round(ratingMean[v]! + normal(i, 61))));
    const mood = sentimentOf(rating);
    const peptide = pepNames[sold(v, int(i, 63, 0, listed[v]! - 1))]!;
    let salt = 64;
    const pick = <T>(xs: readonly T[]): T => xs[int(i, salt++, 0, xs.length - 1)]!;
    b.review.push({
      type: 'review',
      id: `srev-${pad(i, 7)}`,
      vendorSlug: vendorSlugs[v]!,
      rating,
      title: fill(pick(TITLES[mood]), peptide),
      body: fill(pick(BODIES[mood]), peptide),
      author: authorHandle(pick, i),
      createdAt: at(int(i, 70, HOUR_MS, Math.floor(historyDays[v]! * DAY_MS))),
    });
  });

  // Object literals only: spreading a base object here made generation ~100x slower in V8.
  function scaleBatch(i: number): BatchImportRecord {
    const v = vendorAt(u(i, 40));
    const history = historyDays[v]!;
    const vendorSlug = vendorSlugs[v]!;
    const batchId = scaleBatchId(i);
    const peptideSlug = pepSlugs[sold(v, int(i, 49, 0, testedCount[v]! - 1))]!;
    const r = u(i, 41);
    if (r >= approvedShare[v]!) {
      const status = u(i, 48) < (newcomer[v] ? 0.7 : 0.55) ? 'pending' : 'rejected';
      const submittedAt = at(int(i, 42, HOUR_MS, Math.floor(Math.min(60, history) * DAY_MS)));
      return { type: 'batch', vendorSlug, batchId, peptideSlug, status, submittedAt };
    }
    const testedAgo =
      u(i, 47) < staleShare[v]!
        ? int(i, 43, (STALE_DAYS + 10) * DAY_MS, Math.floor(Math.min(history, 700) * DAY_MS))
        : int(i, 43, DAY_MS, Math.floor(Math.min(history, STALE_DAYS - 10) * DAY_MS));
    const purity = Math.min(
      99.9,
      Math.max(90, Math.round((purityLevel[v]! + puritySpread[v]! * normal(i, 53)) * 10) / 10),
    );
    const lab =
      u(i, 44) < trustedShare[v]!
        ? labSlugs[int(i, 50, UNTRUSTED_LABS, LABS - 1)]!
        : labSlugs[int(i, 50, 0, UNTRUSTED_LABS - 1)]!;
    const sourceUrl =
      u(i, 51) < linkShare[v]! ? `https://${lab}.example/verify?report=${encodeURIComponent(batchId)}` : null;
    return {
      type: 'batch',
      vendorSlug,
      batchId,
      peptideSlug,
      purity,
      lab,
      testMethod: METHODS[i % METHODS.length]!,
      testedAt: at(testedAgo),
      source: SOURCES[int(i, 46, 0, SOURCES.length - 1)]!,
      sourceUrl,
      status: 'approved',
      submittedAt: at(testedAgo - int(i, 52, 0, Math.min(2 * DAY_MS, testedAgo - HOUR_MS))),
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
