import { type Static, Type as T, type TSchema } from '@sinclair/typebox';
import { type LimitField, RATE_LIMIT_BOUNDS } from '../../core/accounts/custom-limits.ts';
import { PLANS } from '../../core/accounts/model.ts';
import { EVENT_TYPES, type EventType } from '../../core/events/model.ts';
import { OVERRIDE_FIELDS, type OverrideField, SLUG_PATTERN } from '../../core/import/records.ts';
import { ACTION_REASON_MAX } from '../../core/operator/actions.ts';
import { ACTOR_MAX, ACTOR_PATTERN } from '../../core/operator/actor.ts';
import { MAX_LISTING_ROWS } from '../../core/operator/operator.ts';
import { TOTAL_USD_BOUNDS, VIAL_MG_BOUNDS } from '../../core/prices/bounds.ts';
import { INTEGER_PARAM_MAX } from '../../core/validation/integers.ts';
import type { ListingPlan } from '../../core/vendors/model.ts';
import { ErrorBodySchema } from '../shared-schemas.ts';

/*
 * The operator API's schemas. Field names are camelCase, like the import format
 * (docs/import-format.md), so an operator uses the same names in a file and in a request.
 *
 * Request schemas avoid `anyOf` for enums and nullable values: the service's Ajv coerces types,
 * and inside `anyOf` a coercion of one branch (null → "") leaks into the next. A `type` array
 * (`['string', 'null']`) is checked without coercing a value that already has one of the types,
 * and an `enum` gives the message "must be one of …".
 */

// ---- building blocks ------------------------------------------------------------------------

const Timestamp = T.String({ format: 'date-time', description: 'ISO 8601, UTC, milliseconds.' });
const NullableTimestamp = T.Union([Timestamp, T.Null()]);
const NullableString = T.Union([T.String(), T.Null()]);
const Slug = (description: string) =>
  T.String({ pattern: SLUG_PATTERN.source, minLength: 1, maxLength: 64, description });
const InputTimestamp = (description: string) =>
  T.String({
    format: 'date-time',
    description: `${description} ISO 8601 with a time zone; not in the future; defaults to now.`,
  });

/** A request enum: `{type:'string', enum}` (see the note at the top). */
const StringEnum = <V extends string>(values: readonly V[], description?: string) =>
  T.Unsafe<V>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** A response enum: a union of literals, which TypeBox's own checker understands too. */
const LiteralUnion = <V extends string>(values: readonly V[]) => T.Union(values.map((v) => T.Literal(v)));

const AccountName = T.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$',
  description: '1–100 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit.',
});

/** A custom limit: the bounds of core/accounts/custom-limits.ts, so the OpenAPI document shows them. */
const RateLimitInput = (field: LimitField, description: string) =>
  T.Unsafe<number | null>({
    type: ['integer', 'null'],
    minimum: RATE_LIMIT_BOUNDS[field].min,
    maximum: RATE_LIMIT_BOUNDS[field].max,
    description:
      `${description} An integer from ${RATE_LIMIT_BOUNDS[field].min} to ${RATE_LIMIT_BOUNDS[field].max}; ` +
      `\`null\` = the plan's default. Used by the \`custom\` plan.`,
  });

// ---- headers and errors ---------------------------------------------------------------------

/**
 * Every write names its operator (optional): kept with overrides, in score-history reasons and in
 * the decision log. The core's one rule (core/operator/actor.ts): an email address fits.
 */
export const OperatorHeaders = T.Object({
  'x-operator': T.Optional(
    T.String({
      minLength: 1,
      maxLength: ACTOR_MAX,
      pattern: ACTOR_PATTERN,
      description:
        `Who is acting: 1–${ACTOR_MAX} printable ASCII characters (an email address fits). Recorded with ` +
        'overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`.',
    }),
  ),
});
export type OperatorHeaders = Static<typeof OperatorHeaders>;
export const DEFAULT_ACTOR = 'admin-api';

/**
 * Error responses of the operator API (not rate-limited: no 403 or 429). 413 and 415 are added to
 * every operation that takes a body by the OpenAPI collector (openapi/build-document.ts).
 */
export const adminErrors = (extra: Record<number, string> = {}): Record<number, TSchema> => {
  const all: Record<number, string> = {
    400: 'Invalid parameter (`invalid_parameter`): the message names it.',
    401: 'Missing or wrong admin token (`invalid_api_key`).',
    408: 'The request did not arrive in time (`request_timeout`; decision 0017).',
    431: 'The request headers are too large (`headers_too_large`).',
    500: 'Internal failure (`internal_error`).',
    503: 'The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds.',
    ...extra,
  };
  const out: Record<number, TSchema> = {};
  for (const [status, description] of Object.entries(all)) {
    out[Number(status)] = { ...T.Ref(ErrorBodySchema), description } as TSchema;
  }
  return out;
};

// ---- shared response parts ------------------------------------------------------------------

const ScoreChange = T.Object({
  vendorSlug: T.String(),
  previous: T.Union([T.Integer(), T.Null()], { description: 'null: the vendor was not scored before.' }),
  next: T.Integer(),
});
export const ScoreChanges = T.Array(ScoreChange, {
  description: 'Composite scores this write moved (one score-history entry each).',
});

const PillarValues = (nullable: boolean) => {
  const v = nullable
    ? T.Union([T.Integer({ minimum: 0, maximum: 100 }), T.Null()])
    : T.Integer({ minimum: 0, maximum: 100 });
  return T.Object({ coa: v, purity: v, sentiment: v, transparency: v, experience: v });
};

const OverrideEntry = T.Object({
  vendorSlug: T.String(),
  field: LiteralUnion(OVERRIDE_FIELDS),
  value: T.Integer({ minimum: 0, maximum: 100 }),
  reason: T.String(),
  setBy: T.String({ description: 'Who set it (`X-Operator`; `import` for imported overrides).' }),
  setAt: T.String({ format: 'date-time', description: 'When this value and reason were set (ISO 8601).' }),
});

const AccountOut = T.Object({
  name: T.String(),
  plan: LiteralUnion(PLANS),
  rateLimitA: T.Union([T.Integer(), T.Null()]),
  rateLimitB: T.Union([T.Integer(), T.Null()]),
  createdAt: Timestamp,
});

const KeyOut = {
  id: T.String({ description: 'Key id (`key_…`): use it to revoke.' }),
  name: NullableString,
  prefix: T.String({ description: 'Display prefix: enough to recognise a key, useless to an attacker.' }),
  createdAt: Timestamp,
  revokedAt: NullableTimestamp,
};

const VendorOut = T.Object({
  slug: T.String(),
  name: T.String(),
  verified: T.Boolean(),
  pending: T.Boolean({ description: "The operator's flag (the public one is also true while unscored)." }),
  verifiedAt: NullableTimestamp,
  listingPlan: LiteralUnion<ListingPlan>(['free', 'premium']),
  ownerAccount: T.Union([T.String(), T.Null()], { description: 'The account that claimed it.' }),
  computed: T.Object(PillarValues(true).properties, {
    description: 'Pillars computed from evidence; null for each while there is too little evidence.',
  }),
  pillars: T.Union([PillarValues(false), T.Null()], {
    description: 'Effective pillars (overrides applied); null while the vendor is not scored.',
  }),
  score: T.Union([T.Integer({ minimum: 0, maximum: 100 }), T.Null()], {
    description: 'Effective composite; null while the vendor is not scored.',
  }),
  overrides: T.Array(OverrideEntry),
  history: T.Array(T.Object({ score: T.Integer(), reason: T.String(), recordedAt: Timestamp }), {
    description: 'Composite history with the reason of each entry, newest last.',
  }),
});

const BatchOut = T.Object({
  vendorSlug: T.String(),
  batchId: T.String(),
  peptideSlug: T.String(),
  status: LiteralUnion(['approved', 'pending', 'rejected'] as const),
  purity: T.Union([T.Number(), T.Null()]),
  lab: T.Union([T.String({ description: 'Lab slug.' }), T.Null()]),
  testMethod: NullableString,
  testedAt: NullableTimestamp,
  source: NullableString,
  sourceUrl: NullableString,
  submittedAt: NullableTimestamp,
});

// ---- accounts and keys ----------------------------------------------------------------------

export const AccountParams = T.Object({ name: T.String({ minLength: 1, maxLength: 100 }) });
export type AccountParams = Static<typeof AccountParams>;

export const CreateAccountBody = T.Object(
  {
    name: AccountName,
    plan: StringEnum(PLANS),
    rateLimitA: T.Optional(RateLimitInput('rateLimitA', 'Requests per UTC hour on /v1.')),
    rateLimitB: T.Optional(
      RateLimitInput('rateLimitB', 'Requests per rolling 24 h on /api/v1 (≤ 4 MB of window per key).'),
    ),
  },
  { additionalProperties: false },
);
export type CreateAccountBody = Static<typeof CreateAccountBody>;

export const UpdateAccountBody = T.Object(
  {
    plan: T.Optional(StringEnum(PLANS)),
    rateLimitA: T.Optional(RateLimitInput('rateLimitA', 'Requests per UTC hour on /v1.')),
    rateLimitB: T.Optional(
      RateLimitInput('rateLimitB', 'Requests per rolling 24 h on /api/v1 (≤ 4 MB of window per key).'),
    ),
  },
  { additionalProperties: false, description: 'At least one field. Absent fields keep their value.' },
);
export type UpdateAccountBody = Static<typeof UpdateAccountBody>;

export const AdminAccount = T.Object(AccountOut.properties, { $id: 'AdminAccount', title: 'AdminAccount' });
export const AdminAccountCreated = T.Object(AccountOut.properties, {
  $id: 'AdminAccountCreated',
  title: 'AdminAccountCreated',
  description: 'The account was created.',
});
export const AdminAccountList = T.Object(
  { data: T.Array(AccountOut, { description: 'By name.' }) },
  { $id: 'AdminAccountList', title: 'AdminAccountList' },
);

export const CreateKeyBody = T.Object(
  { name: T.Optional(T.String({ minLength: 1, maxLength: 100, description: 'A label for the key.' })) },
  { additionalProperties: false, description: 'Optional; an empty body is fine.' },
);
export type CreateKeyBody = Static<typeof CreateKeyBody>;

export const RevokeKeyBody = T.Object(
  {
    key: T.String({
      minLength: 1,
      maxLength: 200,
      description: 'The key id (`key_…`), its display prefix, or the full key. Keys never go in a URL.',
    }),
  },
  { additionalProperties: false },
);
export type RevokeKeyBody = Static<typeof RevokeKeyBody>;

export const AdminKeyCreated = T.Object(
  {
    key: T.String({ description: 'The API key. Shown this once; only its hash is stored.' }),
    account: T.String(),
    ...KeyOut,
  },
  { $id: 'AdminKeyCreated', title: 'AdminKeyCreated', description: 'The key was created.' },
);
export const AdminKey = T.Object(KeyOut, { $id: 'AdminKey', title: 'AdminKey' });
export const AdminKeyList = T.Object(
  { data: T.Array(T.Object(KeyOut), { description: 'Oldest first; revoked keys included.' }) },
  { $id: 'AdminKeyList', title: 'AdminKeyList' },
);

// ---- vendors ----------------------------------------------------------------------------------

export const VendorParams = T.Object({
  slug: T.String({ minLength: 1, maxLength: 64, description: 'Vendor slug.' }),
});
export type VendorParams = Static<typeof VendorParams>;

export const AdminVendor = T.Object(VendorOut.properties, { $id: 'AdminVendor', title: 'AdminVendor' });

export const UpdateVendorBody = T.Object(
  {
    verified: T.Optional(T.Boolean({ description: 'Verifying stamps verifiedAt; unverifying clears it.' })),
    pending: T.Optional(T.Boolean()),
    listingPlan: T.Optional(StringEnum<ListingPlan>(['free', 'premium'])),
  },
  { additionalProperties: false, description: 'At least one field. Absent fields keep their value.' },
);
export type UpdateVendorBody = Static<typeof UpdateVendorBody>;

export const ClaimBody = T.Object(
  {
    account: T.Unsafe<string | null>({
      type: ['string', 'null'],
      minLength: 1,
      maxLength: 200,
      description: 'Name of the account that owns the profile; null releases it.',
    }),
  },
  { additionalProperties: false },
);
export type ClaimBody = Static<typeof ClaimBody>;

export const AdminVendorWrite = T.Object(
  {
    changed: T.Boolean({
      description: 'false: the vendor already was in the asked state; nothing was written.',
    }),
    vendor: VendorOut,
    scoreChanges: ScoreChanges,
  },
  { $id: 'AdminVendorWrite', title: 'AdminVendorWrite', description: 'The vendor after the write.' },
);

export const ListingRowBody = T.Object(
  {
    peptideSlug: Slug('Peptide slug; the peptide must exist.'),
    vialMg: T.Number({
      minimum: VIAL_MG_BOUNDS.min,
      maximum: VIAL_MG_BOUNDS.max,
      description: `Vial size in mg, ${VIAL_MG_BOUNDS.min} to ${VIAL_MG_BOUNDS.max}.`,
    }),
    totalUsd: T.Number({
      minimum: TOTAL_USD_BOUNDS.min,
      maximum: TOTAL_USD_BOUNDS.max,
      description: `Price of the vial in US dollars, ${TOTAL_USD_BOUNDS.min} to ${TOTAL_USD_BOUNDS.max}.`,
    }),
    inStock: T.Boolean(),
    updatedAt: T.Optional(InputTimestamp('When the vendor last confirmed the row.')),
  },
  { additionalProperties: false },
);
export const ListingsBody = T.Object(
  {
    rows: T.Array(ListingRowBody, {
      minItems: 1,
      maxItems: MAX_LISTING_ROWS,
      description:
        `1–${MAX_LISTING_ROWS} rows, at most one per peptide and vial size. Each is upserted as a live price ` +
        'row; rows of earlier feeds that this one does not mention are kept.',
    }),
  },
  { additionalProperties: false },
);
export type ListingsBody = Static<typeof ListingsBody>;

export const AdminListingsResult = T.Object(
  { vendorSlug: T.String(), rows: T.Integer({ description: 'Rows written.' }), scoreChanges: ScoreChanges },
  { $id: 'AdminListingsResult', title: 'AdminListingsResult' },
);

// ---- overrides --------------------------------------------------------------------------------

export const OverrideParams = T.Object({
  slug: T.String({ minLength: 1, maxLength: 64, description: 'Vendor slug.' }),
  field: StringEnum<OverrideField>(OVERRIDE_FIELDS, 'A pillar, or `score` to pin the composite.'),
});
export type OverrideParams = Static<typeof OverrideParams>;

export const OverridesQuery = T.Object({
  vendor: T.Optional(T.String({ minLength: 1, maxLength: 64, description: 'Only this vendor (slug).' })),
});
export type OverridesQuery = Static<typeof OverridesQuery>;

export const SetOverrideBody = T.Object(
  {
    value: T.Integer({ minimum: 0, maximum: 100 }),
    reason: T.String({
      minLength: 1,
      maxLength: 500,
      pattern: '\\S',
      description: 'Why; shown to operators.',
    }),
  },
  { additionalProperties: false },
);
export type SetOverrideBody = Static<typeof SetOverrideBody>;

/** Why, for a decision whose reason is optional: kept in the operator decision log. */
const OptionalReason = (what: string) =>
  T.Optional(
    T.String({
      minLength: 1,
      maxLength: ACTION_REASON_MAX,
      pattern: '\\S',
      description: `Why ${what} (optional, 1–${ACTION_REASON_MAX} characters, trimmed): kept with who and when in the operator decision log.`,
    }),
  );

export const ClearOverrideBody = T.Object(
  { reason: OptionalReason('the override is cleared') },
  {
    additionalProperties: false,
    description:
      'Optional; no body is fine. The reason may be given here or as the `reason` query parameter.',
  },
);
export type ClearOverrideBody = Static<typeof ClearOverrideBody>;

export const ClearOverrideQuery = T.Object({ reason: OptionalReason('the override is cleared') });
export type ClearOverrideQuery = Static<typeof ClearOverrideQuery>;

export const AdminOverrideList = T.Object(
  { data: T.Array(OverrideEntry, { description: 'By vendor slug, then field.' }) },
  { $id: 'AdminOverrideList', title: 'AdminOverrideList' },
);
export const AdminOverrideSet = T.Object(
  { override: OverrideEntry, scoreChanges: ScoreChanges },
  { $id: 'AdminOverrideSet', title: 'AdminOverrideSet' },
);
export const AdminOverrideCleared = T.Object(
  {
    cleared: T.Union([OverrideEntry, T.Null()], { description: 'The override as it was.' }),
    scoreChanges: ScoreChanges,
  },
  { $id: 'AdminOverrideCleared', title: 'AdminOverrideCleared' },
);

// ---- reviews ----------------------------------------------------------------------------------

export const ReviewBody = T.Object(
  {
    id: T.Optional(
      T.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9_.:-]+$',
        description: 'Defaults to a new `rev_…` id; an existing id is 409.',
      }),
    ),
    vendorSlug: T.String({ minLength: 1, maxLength: 64 }),
    rating: T.Integer({ minimum: 1, maximum: 5 }),
    title: T.String({ maxLength: 200 }),
    body: T.String({ maxLength: 10_000 }),
    author: T.String({ minLength: 1, maxLength: 200 }),
    createdAt: T.Optional(InputTimestamp('When the review was written.')),
  },
  { additionalProperties: false },
);
export type ReviewBody = Static<typeof ReviewBody>;

export const ReviewParams = T.Object({
  id: T.String({ minLength: 1, maxLength: 64, description: 'Review id.' }),
});
export type ReviewParams = Static<typeof ReviewParams>;

export const ReplyBody = T.Object(
  {
    body: T.String({ minLength: 1, maxLength: 10_000 }),
    account: T.String({
      minLength: 1,
      maxLength: 200,
      description: 'The account replying: it must own (have claimed) the reviewed vendor.',
    }),
    createdAt: T.Optional(InputTimestamp('When the reply was written.')),
  },
  { additionalProperties: false },
);
export type ReplyBody = Static<typeof ReplyBody>;

export const AdminReviewCreated = T.Object(
  { id: T.String(), vendorSlug: T.String(), scoreChanges: ScoreChanges },
  { $id: 'AdminReviewCreated', title: 'AdminReviewCreated', description: 'The review was added.' },
);
export const AdminReplyCreated = T.Object(
  { reviewId: T.String(), account: T.String(), scoreChanges: ScoreChanges },
  { $id: 'AdminReplyCreated', title: 'AdminReplyCreated', description: 'The reply was added.' },
);

// ---- batches ----------------------------------------------------------------------------------

export const PENDING_PAGE = 50;
export const PendingQuery = T.Object({
  limit: T.Optional(
    T.Integer({
      minimum: 1,
      maximum: 200,
      default: PENDING_PAGE,
      description: 'Page size, 1–200 (default 50).',
    }),
  ),
  offset: T.Optional(
    T.Integer({
      minimum: 0,
      maximum: INTEGER_PARAM_MAX,
      default: 0,
      description: `Items to skip, 0–${INTEGER_PARAM_MAX} (default 0).`,
    }),
  ),
});
export type PendingQuery = Static<typeof PendingQuery>;

const Nullable = (schema: ReturnType<typeof T.String> | ReturnType<typeof T.Number>) =>
  T.Union([schema, T.Null()]);

/** A CoA upload attached to a submission: what the document states and what the verifier noted. */
const UploadOut = T.Object({
  verificationId: T.String(),
  account: T.String({ description: 'The account that uploaded it.' }),
  uploadedAt: Timestamp,
  status: LiteralUnion(['verified', 'pending_review', 'mismatch', 'rejected', 'unreadable'] as const),
  confidence: T.Number({ minimum: 0, maximum: 1 }),
  notes: T.Array(T.Object({ code: T.String(), message: T.String() })),
  extracted: T.Union([
    T.Object({
      lab: NullableString,
      batch: NullableString,
      compound: NullableString,
      testDate: T.Union([T.Object({ iso: T.String(), text: T.String(), ambiguous: T.Boolean() }), T.Null()]),
      method: NullableString,
      purity: Nullable(T.Number()),
      purityText: NullableString,
      quantity: NullableString,
      labelClaim: NullableString,
      identity: NullableString,
      client: NullableString,
      verificationKey: NullableString,
      verificationUrl: NullableString,
    }),
    T.Null(),
  ]),
  sha256: T.String({ description: 'SHA-256 of the uploaded file.' }),
  filePath: T.Union([T.String({ description: 'Relative to COA_FILE_DIR (COA_STORE_FILES on).' }), T.Null()]),
});

const PendingBatchOut = T.Composite([
  BatchOut,
  T.Object({
    uploads: T.Array(UploadOut, {
      description: 'CoA uploads of this submission, oldest first: the first 20.',
    }),
    uploadsTotal: T.Integer({ minimum: 0, description: 'How many CoA uploads the submission has in all.' }),
  }),
]);

export const AdminPendingBatches = T.Object(
  {
    data: T.Array(PendingBatchOut, { description: 'Oldest submission first, with the CoA uploads of each.' }),
    total: T.Integer({ description: 'All pending submissions, not just this page.' }),
    limit: T.Integer(),
    offset: T.Integer(),
  },
  { $id: 'AdminPendingBatches', title: 'AdminPendingBatches' },
);

export const BatchParams = T.Object({
  slug: T.String({ minLength: 1, maxLength: 64, description: 'Vendor slug.' }),
  batchId: T.String({
    minLength: 1,
    maxLength: 128,
    description: 'Batch number, URL-encoded; matched case-insensitively after trimming.',
  }),
});
export type BatchParams = Static<typeof BatchParams>;

export const ApproveBody = T.Object(
  {
    purity: T.Optional(T.Number({ minimum: 0, maximum: 100, description: 'Percent.' })),
    lab: T.Optional(Slug('Lab slug; the lab must exist.')),
    testMethod: T.Optional(T.String({ minLength: 1, maxLength: 100 })),
    testedAt: T.Optional(
      T.String({
        format: 'date-time',
        description: 'When the batch was tested: ISO 8601, not in the future.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The test facts the submission lacks (an approved batch needs purity, lab, testMethod and testedAt); ' +
      'given fields replace the submitted ones. Optional; an empty body is fine.',
  },
);
export type ApproveBody = Static<typeof ApproveBody>;

export const RejectBody = T.Object(
  { reason: OptionalReason('the batch is rejected') },
  { additionalProperties: false, description: 'Optional; no body is fine.' },
);
export type RejectBody = Static<typeof RejectBody>;

export const AdminBatchWrite = T.Object(
  { batch: BatchOut, scoreChanges: ScoreChanges },
  { $id: 'AdminBatchWrite', title: 'AdminBatchWrite', description: 'The batch after the decision.' },
);

// ---- scores and events ------------------------------------------------------------------------

export const AdminRecomputeResult = T.Object(
  {
    vendors: T.Integer({ description: 'Vendors recomputed.' }),
    updated: T.Integer({ description: 'Vendors whose stored pillars or score changed.' }),
    changed: T.Integer({ description: 'Vendors whose composite moved (length of scoreChanges).' }),
    scoreChanges: ScoreChanges,
  },
  { $id: 'AdminRecomputeResult', title: 'AdminRecomputeResult' },
);

export const EVENTS_PAGE = 100;
export const EventsQuery = T.Object({
  after: T.Optional(
    T.Integer({
      minimum: 0,
      maximum: INTEGER_PARAM_MAX,
      description: `Only events after this \`seq\` (pass \`next\`), 0–${INTEGER_PARAM_MAX}.`,
    }),
  ),
  type: T.Optional(StringEnum<EventType>(EVENT_TYPES)),
  vendor: T.Optional(
    T.String({ minLength: 1, maxLength: 64, description: 'Only events of this vendor (slug).' }),
  ),
  limit: T.Optional(
    T.Integer({ minimum: 1, maximum: 1000, default: EVENTS_PAGE, description: '1–1000 (default 100).' }),
  ),
});
export type EventsQuery = Static<typeof EventsQuery>;

export const AdminEventList = T.Object(
  {
    data: T.Array(
      T.Object({
        seq: T.Integer({ description: 'Position in the outbox; increases with every event.' }),
        id: T.String({ description: 'Public id, `evt_…`.' }),
        type: LiteralUnion(EVENT_TYPES),
        createdAt: Timestamp,
        data: T.Record(T.String(), T.Unknown(), { description: 'The payload; always has `vendor_slug`.' }),
      }),
      { description: 'Oldest first.' },
    ),
    next: T.Union([T.Integer(), T.Null()], {
      description: '`seq` of the last event here, to pass as `after`; null when there was none.',
    }),
  },
  { $id: 'AdminEventList', title: 'AdminEventList' },
);
