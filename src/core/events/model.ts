import { type Static, Type as T, type TSchema } from '@sinclair/typebox';
// The schemas use `date-time`: checking them needs the format registered.
import '../validation/formats.ts';

/**
 * Events written to the outbox in the transaction of the change they describe (DESIGN.md §3), so
 * none is lost and none describes a rolled-back change. Delivery (webhooks) reads the outbox.
 *
 * Each kind's `data` is declared once here, as a TypeBox schema: the TypeScript type, the runtime
 * check (tests, webhook delivery) and docs/events.md describe the same shape. Every `data` carries
 * `vendor_slug` (DESIGN.md §4). Fields are snake_case, as the spec's `score.changed`. Timestamps are
 * ISO 8601 UTC with milliseconds. New fields may be added to a kind; none is removed or retyped.
 */
export const EVENT_TYPES = [
  'score.changed',
  'vendor.tier_upgraded',
  'coa.approved',
  'coa.rejected',
  'review.new',
  'review.reply',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const VendorSlug = T.String({ description: 'The vendor the event is about.' });
const Timestamp = T.String({ format: 'date-time' });
const Score = T.Integer({ minimum: 0, maximum: 100 });
const TierName = T.Union([
  T.Literal('bronze'),
  T.Literal('silver'),
  T.Literal('gold'),
  T.Literal('platinum'),
]);

/** Exactly the spec's `score.changed` (interface.md, Variant A events). */
export const ScoreChangedData = T.Object(
  {
    vendor_slug: VendorSlug,
    previous_score: Score,
    new_score: Score,
    delta: T.Integer({ description: 'new_score − previous_score.' }),
    pillar_changes: T.Partial(
      T.Object({
        coa: T.Integer(),
        purity: T.Integer(),
        sentiment: T.Integer(),
        transparency: T.Integer(),
        experience: T.Integer(),
      }),
      {
        description: 'Signed change of each pillar that moved; {} when only an override of the score moved.',
      },
    ),
  },
  { additionalProperties: false },
);

export const TierUpgradedData = T.Object(
  {
    vendor_slug: VendorSlug,
    previous_tier: TierName,
    new_tier: TierName,
    score: T.Integer({ minimum: 0, maximum: 100, description: 'The composite that reached the new tier.' }),
  },
  { additionalProperties: false },
);

const BatchFacts = {
  vendor_slug: VendorSlug,
  batch_id: T.String({ description: 'The batch id as the vendor wrote it (trimmed).' }),
  peptide_slug: T.String(),
  peptide_name: T.String(),
};

/** An approved batch always has its test facts: the import rules refuse an approval without them. */
export const CoaApprovedData = T.Object(
  {
    ...BatchFacts,
    purity: T.Number({ minimum: 0, maximum: 100, description: 'Tested purity, percent.' }),
    lab: T.String({ description: 'Slug of the lab that tested it.' }),
    lab_name: T.String(),
    test_method: T.String({ description: 'e.g. HPLC, HPLC-MS.' }),
    tested_at: Timestamp,
  },
  { additionalProperties: false },
);

export const CoaRejectedData = T.Object({ ...BatchFacts }, { additionalProperties: false });

export const ReviewNewData = T.Object(
  {
    vendor_slug: VendorSlug,
    review_id: T.String(),
    rating: T.Integer({ minimum: 1, maximum: 5 }),
    title: T.String(),
    body: T.String(),
    author: T.String({ description: "The reviewer's display name." }),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);

export const ReviewReplyData = T.Object(
  {
    vendor_slug: VendorSlug,
    review_id: T.String({ description: 'The review replied to.' }),
    body: T.String(),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);

/** The `data` schema of each kind. */
export const EVENT_DATA = {
  'score.changed': ScoreChangedData,
  'vendor.tier_upgraded': TierUpgradedData,
  'coa.approved': CoaApprovedData,
  'coa.rejected': CoaRejectedData,
  'review.new': ReviewNewData,
  'review.reply': ReviewReplyData,
} as const satisfies Record<EventType, TSchema>;

export type EventData<K extends EventType = EventType> = Static<(typeof EVENT_DATA)[K]>;

/** An event to append: one of the six kinds with its own `data`. */
export type NewEvent = { [K in EventType]: { type: K; data: EventData<K> } }[EventType];
export type EventOf<K extends EventType> = Extract<NewEvent, { type: K }>;

/**
 * An event as stored: `id` is public (`evt_…`), `seq` orders the outbox, `vendorSlug` is
 * `data.vendor_slug` (an indexed column for filtering). Events written before the typed union
 * (issue [5]) lack the fields docs/events.md marks as added then.
 */
export type StoredEvent = NewEvent & {
  seq: number;
  id: string;
  vendorSlug: string;
  createdAt: string;
};

export interface EventQuery {
  /** Only events after this sequence number (paging: pass the last `seq` seen). */
  after?: number;
  /** Only events before this sequence number (paging newest first: pass the last `seq` seen). */
  before?: number;
  /** Newest first (the console); otherwise oldest first, the order they were committed. */
  newestFirst?: boolean;
  type?: EventType;
  vendorSlug?: string;
  limit: number;
}
