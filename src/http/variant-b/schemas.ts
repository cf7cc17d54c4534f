import { type Static, Type as T } from '@sinclair/typebox';
import { PillarsSchema } from '../shared-schemas.ts';

const Timestamp = T.String({ format: 'date-time', description: 'ISO 8601, UTC, milliseconds.' });

/** Every success of Variant B: `{data, data_updated_at}`. */
const envelope = <S extends ReturnType<typeof T.Object>>(data: S, id: string) =>
  T.Object(
    {
      data,
      data_updated_at: T.String({
        format: 'date-time',
        description: 'When the data behind this response last changed (not the response time).',
      }),
    },
    { $id: id, title: id },
  );

export const VendorListItemB = T.Object({
  slug: T.String(),
  name: T.String(),
  score: T.Integer({ minimum: 0, maximum: 100, description: 'Composite score.' }),
  verified: T.Boolean(),
  location: T.String({ description: 'Country.' }),
  pillars: PillarsSchema,
});

export const VendorListB = envelope(
  T.Object({
    vendors: T.Array(VendorListItemB),
    total: T.Integer({ description: 'Count of all scored vendors, not of this page.' }),
    limit: T.Integer({ description: 'The page size applied (after clamping to 1..200).' }),
    offset: T.Integer({ description: 'The offset applied.' }),
  }),
  'VendorListB',
);

export const VendorDetailB = envelope(
  T.Object({
    slug: T.String(),
    name: T.String(),
    score: T.Optional(
      T.Integer({
        minimum: 0,
        maximum: 100,
        description: 'Composite score. Absent while the vendor is not yet scored (it is then `pending`).',
      }),
    ),
    verified: T.Boolean(),
    pending: T.Boolean(),
    location: T.String(),
    pillars: T.Optional(
      T.Object(PillarsSchema.properties, {
        description: 'The five pillars. Absent while the vendor is not yet scored (it is then `pending`).',
      }),
    ),
    description: T.String(),
    website: T.Optional(T.String({ format: 'uri', description: 'Present only for premium listings.' })),
    scoreHistory: T.Array(T.Integer(), { description: 'Composite scores, oldest first (newest 30).' }),
  }),
  'VendorDetailB',
);

export const PriceRowB = T.Object({
  vendorSlug: T.String(),
  vendorName: T.String(),
  totalUsd: T.Number({ description: 'Total price in US dollars.' }),
  vialMg: T.Number({ description: 'Vial size in milligrams.' }),
  perMg: T.Number({ description: 'totalUsd / vialMg, rounded to 4 decimals (sorted on the exact value).' }),
  inStock: T.Boolean(),
  claimed: T.Boolean({ description: 'The vendor profile is owned by an account.' }),
  live: T.Boolean({ description: 'A live vendor listing rather than the static baseline.' }),
  stale: T.Boolean({ description: 'Live: not refreshed for 72 h. Baseline: older than 90 days.' }),
  updatedAt: Timestamp,
});

export const PriceTableB = envelope(
  T.Object({
    slug: T.String(),
    name: T.String(),
    category: T.String(),
    prices: T.Array(PriceRowB, {
      description: 'In stock first, then claimed vendors, then ascending perMg.',
    }),
  }),
  'PriceTableB',
);

const PriceStatRowB = T.Object(
  {
    vendorSlug: T.String(),
    vendorName: T.String(),
    perMg: T.Number({ description: 'totalUsd / vialMg, rounded to 4 decimals.' }),
    totalUsd: T.Number(),
    vialMg: T.Number(),
  },
  { description: 'The listing a statistic points at.' },
);

const Quartile = (what: string) =>
  T.Union([T.Number(), T.Null()], {
    description: `${what} of each in-stock vendor's lowest $/mg (linear interpolation, 4 decimals); null when no vendor is in stock.`,
  });

export const DailyPriceStatsB = T.Object(
  {
    date: T.String({
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
      description: 'The UTC day (YYYY-MM-DD), as listed at its end.',
    }),
    cheapestInStock: T.Union([PriceStatRowB, T.Null()], {
      description: 'The lowest $/mg of any in-stock listing (ties: vendor slug, then vial size).',
    }),
    cheapestVerified: T.Union([PriceStatRowB, T.Null()], {
      description:
        "The lowest $/mg of an in-stock listing of a verified vendor: the vendor's `verified` of /api/v1/vendors (not the price table's `claimed`: that says an account owns the vendor's profile).",
    }),
    median: Quartile('Median'),
    p25: Quartile('25th percentile'),
    p75: Quartile('75th percentile'),
    vendorCount: T.Integer({ description: 'Vendors with at least one in-stock listing.' }),
    listedVendorCount: T.Integer({ description: 'Vendors with any listing, in stock or not.' }),
  },
  {
    description:
      'A summary of the listings standing at the end of a UTC day: a live listing replaces the baseline one of ' +
      'the same vendor and vial size, as in the price table.',
  },
);

export const PriceStatsB = envelope(
  T.Object({ slug: T.String(), name: T.String(), category: T.String(), stats: DailyPriceStatsB }),
  'PriceStatsB',
);

export const PriceHistoryB = envelope(
  T.Object({
    slug: T.String(),
    name: T.String(),
    category: T.String(),
    days: T.Integer({ description: 'The number of days asked for (echoed).' }),
    points: T.Array(DailyPriceStatsB, {
      description: 'One point per UTC day, oldest first; the last is today.',
    }),
  }),
  'PriceHistoryB',
);

const BatchCommon = {
  batchId: T.String({ description: 'The batch number as the vendor wrote it.' }),
  peptideName: T.String(),
  vendorSlug: T.String(),
  vendorName: T.String(),
  vendorVerified: T.Boolean(),
};
const Tested = {
  ...BatchCommon,
  purity: T.Number({ description: 'Percent.' }),
  lab: T.String({ description: 'Name of the testing laboratory.' }),
  testMethod: T.String(),
  testedAt: Timestamp,
  ageDays: T.Integer({ description: 'Whole days since testing.' }),
  source: T.String({ description: 'Origin of the record; "" when none was recorded.' }),
  sourceUrl: T.String({ description: 'URL of the record; "" when none was recorded.' }),
};

export const BatchVerifiedB = T.Object(
  { state: T.Literal('verified'), ...Tested },
  { title: 'BatchVerified' },
);
export const BatchStaleB = T.Object(
  { state: T.Literal('stale'), ...Tested },
  { title: 'BatchStale', description: 'Tested more than 150 days ago.' },
);
export const BatchPendingB = T.Object(
  { state: T.Literal('pending'), ...BatchCommon, submittedAt: Timestamp },
  { title: 'BatchPending', description: 'A submission exists that has not been reviewed.' },
);
export const BatchMissingB = T.Object(
  {
    state: T.Literal('missing'),
    batchId: T.String({ description: 'The batch number as requested (trimmed).' }),
  },
  { title: 'BatchMissing', description: 'No record (a rejected submission alone counts as none).' },
);

export const BatchLookupB = T.Object(
  {
    data: T.Union([BatchVerifiedB, BatchStaleB, BatchPendingB, BatchMissingB]),
    data_updated_at: T.String({ format: 'date-time' }),
  },
  { $id: 'BatchLookupB', title: 'BatchLookupB' },
);

export type VendorListItemB = Static<typeof VendorListItemB>;
