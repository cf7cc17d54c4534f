/**
 * Events written to the outbox in the transaction of the change they describe (DESIGN.md §3), so
 * none is lost and none describes a rolled-back change. Delivery (webhooks) reads the outbox.
 * Every event's `data` carries `vendor_slug` (DESIGN.md §4).
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

export interface NewEvent {
  type: EventType;
  vendorSlug: string;
  data: { vendor_slug: string } & Record<string, unknown>;
}

/** An event as stored: `id` is public (`evt_…`), `seq` orders the outbox. */
export interface StoredEvent extends NewEvent {
  seq: number;
  id: string;
  createdAt: string;
}

export interface EventQuery {
  /** Only events after this sequence number (paging: pass the last `seq` seen). */
  after?: number;
  type?: EventType;
  vendorSlug?: string;
  limit: number;
}
