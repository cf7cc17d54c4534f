import { type Static, Type as T } from '@sinclair/typebox';
import { RATE_LIMIT_BOUNDS } from '../accounts/custom-limits.ts';
import { MAX_BATCH_ID_LENGTH } from '../batches/model.ts';
import { ACTOR_MAX } from '../operator/actor.ts';
import { TOTAL_USD_BOUNDS, VIAL_MG_BOUNDS } from '../prices/bounds.ts';

/**
 * The JSON Lines import format (DESIGN.md §5, docs/import-format.md). One record per line with a
 * `type`. Natural keys are upserted, so importing a file twice changes nothing the second time.
 * Optional fields that are absent keep the stored value on update and take the default on insert.
 */

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const Slug = T.String({ pattern: SLUG_PATTERN.source, minLength: 1, maxLength: 64 });
const Name = T.String({ minLength: 1, maxLength: 200 });
const Text = (max: number) => T.String({ maxLength: max });
const Timestamp = T.String({ format: 'date-time' });
const Url = T.String({ format: 'uri', maxLength: 2048 });
const Score = T.Integer({ minimum: 0, maximum: 100 });

/** The bounds of a custom limit (core/accounts/custom-limits.ts) as a schema range. */
const limitRange = (field: keyof typeof RATE_LIMIT_BOUNDS) => ({
  minimum: RATE_LIMIT_BOUNDS[field].min,
  maximum: RATE_LIMIT_BOUNDS[field].max,
});

export const AccountRecord = T.Object(
  {
    type: T.Literal('account'),
    name: Name,
    plan: T.Union([T.Literal('free'), T.Literal('pro'), T.Literal('enterprise'), T.Literal('custom')]),
    /** Requests per UTC hour on Variant A for a custom plan; null = the plan default. */
    rateLimitA: T.Optional(T.Union([T.Integer(limitRange('rateLimitA')), T.Null()])),
    /** Requests per rolling 24 h on Variant B for a custom plan; null = the plan default. */
    rateLimitB: T.Optional(T.Union([T.Integer(limitRange('rateLimitB')), T.Null()])),
  },
  { additionalProperties: false },
);

export const VendorRecord = T.Object(
  {
    type: T.Literal('vendor'),
    slug: Slug,
    name: Name,
    location: T.Optional(Text(100)),
    description: T.Optional(Text(5000)),
    website: T.Optional(T.Union([Url, T.Null()])),
    listingPlan: T.Optional(T.Union([T.Literal('free'), T.Literal('premium')])),
    verified: T.Optional(T.Boolean()),
    pending: T.Optional(T.Boolean()),
    verifiedAt: T.Optional(T.Union([Timestamp, T.Null()])),
  },
  { additionalProperties: false },
);

export const ClaimRecord = T.Object(
  {
    type: T.Literal('claim'),
    vendorSlug: Slug,
    /** Name of the owning account; null releases the claim. */
    account: T.Union([Name, T.Null()]),
  },
  { additionalProperties: false },
);

export const PeptideRecord = T.Object(
  {
    type: T.Literal('peptide'),
    slug: Slug,
    name: Name,
    category: Slug,
    molecularWeight: T.String({ pattern: '^[0-9]+(\\.[0-9]+)? ?[A-Za-z/]+$', maxLength: 40 }),
    aliases: T.Optional(T.Array(T.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
);

export const LabRecord = T.Object(
  {
    type: T.Literal('lab'),
    slug: Slug,
    name: Name,
    trusted: T.Optional(T.Boolean()),
    /** The registry flags the lab (known to issue forged reports); default false. */
    flagged: T.Optional(T.Boolean()),
    verifyUrl: T.Optional(T.Union([Url, T.Null()])),
  },
  { additionalProperties: false },
);

export const PriceRecord = T.Object(
  {
    type: T.Literal('price'),
    vendorSlug: Slug,
    peptideSlug: Slug,
    vialMg: T.Number({ minimum: VIAL_MG_BOUNDS.min, maximum: VIAL_MG_BOUNDS.max }),
    source: T.Union([T.Literal('baseline'), T.Literal('live')]),
    totalUsd: T.Number({ minimum: TOTAL_USD_BOUNDS.min, maximum: TOTAL_USD_BOUNDS.max }),
    inStock: T.Boolean(),
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
);

export const BatchRecordSchema = T.Object(
  {
    type: T.Literal('batch'),
    vendorSlug: Slug,
    /** Matched case-insensitively after trimming; the text as given is what the API shows. */
    batchId: T.String({
      minLength: 1,
      maxLength: MAX_BATCH_ID_LENGTH,
      pattern: '^[^\\u0000-\\u001f\\u007f]+$',
    }),
    peptideSlug: Slug,
    purity: T.Optional(T.Union([T.Number({ minimum: 0, maximum: 100 }), T.Null()])),
    /** Lab slug. */
    lab: T.Optional(T.Union([Slug, T.Null()])),
    testMethod: T.Optional(T.Union([Text(100), T.Null()])),
    testedAt: T.Optional(T.Union([Timestamp, T.Null()])),
    source: T.Optional(T.Union([Text(100), T.Null()])),
    sourceUrl: T.Optional(T.Union([Url, T.Null()])),
    status: T.Union([T.Literal('approved'), T.Literal('pending'), T.Literal('rejected')]),
    submittedAt: T.Optional(T.Union([Timestamp, T.Null()])),
  },
  { additionalProperties: false },
);

export const ReviewRecord = T.Object(
  {
    type: T.Literal('review'),
    id: T.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' }),
    vendorSlug: Slug,
    rating: T.Integer({ minimum: 1, maximum: 5 }),
    title: Text(200),
    body: Text(10_000),
    author: Name,
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export const ReplyRecord = T.Object(
  {
    type: T.Literal('reply'),
    reviewId: T.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' }),
    body: T.String({ minLength: 1, maxLength: 10_000 }),
    createdAt: Timestamp,
    /** Name of the account that wrote the reply (the vendor's owner); optional in imports. */
    account: T.Optional(Name),
  },
  { additionalProperties: false },
);

export const OVERRIDE_FIELDS = ['coa', 'purity', 'sentiment', 'transparency', 'experience', 'score'] as const;
export type OverrideField = (typeof OVERRIDE_FIELDS)[number];

export const OverrideRecord = T.Object(
  {
    type: T.Literal('override'),
    vendorSlug: Slug,
    field: T.Union(OVERRIDE_FIELDS.map((f) => T.Literal(f))),
    /** null clears the override. */
    value: T.Union([Score, T.Null()]),
    reason: T.Optional(Text(500)),
    /** Who set it (shown in the operator API); imports default to `import`. An operator's email fits. */
    setBy: T.Optional(T.String({ minLength: 1, maxLength: ACTOR_MAX })),
  },
  { additionalProperties: false },
);

export type AccountRecord = Static<typeof AccountRecord>;
export type VendorRecord = Static<typeof VendorRecord>;
export type ClaimRecord = Static<typeof ClaimRecord>;
export type PeptideRecord = Static<typeof PeptideRecord>;
export type LabRecord = Static<typeof LabRecord>;
export type PriceRecord = Static<typeof PriceRecord>;
export type BatchImportRecord = Static<typeof BatchRecordSchema>;
export type ReviewRecord = Static<typeof ReviewRecord>;
export type ReplyRecord = Static<typeof ReplyRecord>;
export type OverrideRecord = Static<typeof OverrideRecord>;

export type ImportRecord =
  | AccountRecord
  | VendorRecord
  | ClaimRecord
  | PeptideRecord
  | LabRecord
  | PriceRecord
  | BatchImportRecord
  | ReviewRecord
  | ReplyRecord
  | OverrideRecord;

export type RecordType = ImportRecord['type'];

/** Schemas by `type`, in the order an import applies them (referenced records first). */
export const RECORD_SCHEMAS = {
  account: AccountRecord,
  lab: LabRecord,
  peptide: PeptideRecord,
  vendor: VendorRecord,
  claim: ClaimRecord,
  price: PriceRecord,
  batch: BatchRecordSchema,
  review: ReviewRecord,
  reply: ReplyRecord,
  override: OverrideRecord,
} as const;

export const RECORD_TYPES = Object.keys(RECORD_SCHEMAS) as RecordType[];

/** Records of one import, grouped by type. */
export interface ImportBatch {
  account: AccountRecord[];
  lab: LabRecord[];
  peptide: PeptideRecord[];
  vendor: VendorRecord[];
  claim: ClaimRecord[];
  price: PriceRecord[];
  batch: BatchImportRecord[];
  review: ReviewRecord[];
  reply: ReplyRecord[];
  override: OverrideRecord[];
}

export const emptyImportBatch = (): ImportBatch => ({
  account: [],
  lab: [],
  peptide: [],
  vendor: [],
  claim: [],
  price: [],
  batch: [],
  review: [],
  reply: [],
  override: [],
});

/** A text that could be a slug; anything else names nothing, so lookups can answer without a query. */
export const isSlug = (s: string): boolean => s.length <= 64 && SLUG_PATTERN.test(s);

/** The natural key that makes batch lookups case-insensitive after trimming. */
export const batchKey = (batchId: string): string => batchId.normalize('NFKC').trim().toLowerCase();
