import type { Generated } from 'kysely';

/**
 * Table types shared by both dialects. Conventions (docs/decisions/0003-storage-types.md):
 * timestamps are ISO 8601 UTC text with milliseconds (sortable, exact round-trip, identical on
 * both backends); flags are integers 0/1; money and percentages are double precision.
 */
type Flag = number;

export interface DataStateTable {
  id: number;
  /** Bumped by every committed change to catalog data; drives read-model and cache invalidation. */
  data_version: number;
  /** Bumped by every change to accounts or keys; drives the key cache. */
  keys_version: number;
  /** Bumped by writes of labs, peptides or vendors: what CoA documents are matched against. */
  registry_version: Generated<number>;
  data_updated_at: string;
}

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  plan: string;
  rate_limit_a: number | null;
  rate_limit_b: number | null;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: number;
  name: string | null;
  prefix: string;
  /** Hex SHA-256 of the full key; the key itself is never stored. */
  hash: string;
  created_at: string;
  revoked_at: string | null;
  /** Set by a roll: the key answers 401 from then on, like a revoked one. */
  expires_at: string | null;
  /** The key a roll replaced this one with. */
  rolled_to: string | null;
}

export interface VendorsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  location: string;
  description: string;
  website: string | null;
  listing_plan: string;
  verified: Flag;
  pending: Flag;
  verified_at: string | null;
  owner_account_id: number | null;
  /** Computed pillars (null until evidence exists; the engine of a later issue fills them). */
  coa: number | null;
  purity: number | null;
  sentiment: number | null;
  transparency: number | null;
  experience: number | null;
  /** Effective composite after overrides; null when unscored. */
  score: number | null;
  eff_coa: number | null;
  eff_purity: number | null;
  eff_sentiment: number | null;
  eff_transparency: number | null;
  eff_experience: number | null;
  /** Mean tested purity of approved batches (percent), for Variant A's `purity` text. */
  avg_purity: number | null;
  created_at: string;
  updated_at: string;
  /** data_version of the last write that touched this vendor (incremental read-model reloads). */
  row_version: Generated<number>;
}

export interface OverridesTable {
  vendor_id: number;
  field: string;
  value: number;
  reason: string;
  created_at: string;
  /** Who set it: an operator name from the operator API or CLI, `import` for imported overrides. */
  set_by: Generated<string>;
}

export interface ScoreHistoryTable {
  id: Generated<number>;
  vendor_id: number;
  score: number;
  reason: string;
  recorded_at: string;
}

export interface PeptidesTable {
  id: Generated<number>;
  slug: string;
  name: string;
  category: string;
  molecular_weight: string;
  created_at: string;
  updated_at: string;
}

export interface PeptideAliasesTable {
  peptide_id: number;
  alias: string;
}

export interface LabsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  trusted: Flag;
  /** The registry flags the lab (struck off, known to issue forged reports): a forgery signal. */
  flagged: Generated<Flag>;
  verify_url: string | null;
}

export interface PricesTable {
  vendor_id: number;
  peptide_id: number;
  vial_mg: number;
  source: string;
  total_usd: number;
  in_stock: Flag;
  updated_at: string;
}

/** One change of a price listing (migration 0009): who, when, old and new. */
export interface PriceChangesTable {
  id: Generated<number>;
  vendor_id: number;
  peptide_id: number;
  vial_mg: number;
  source: string;
  old_total_usd: number | null;
  old_in_stock: Flag | null;
  old_updated_at: string | null;
  new_total_usd: number;
  new_in_stock: Flag;
  /** ISO 8601: the listing's updatedAt after the change, when the price held. */
  effective_at: string;
  /** ISO 8601: the write's time. */
  changed_at: string;
  /** The write's reason (`import`, `listing feed by …`). */
  changed_by: string;
}

export interface BatchesTable {
  id: Generated<number>;
  vendor_id: number;
  /** As given by the vendor, shown by the API. */
  batch_id: string;
  /** batchKey(batch_id): trimmed, NFKC, lower-case. Lookups use this. */
  batch_key: string;
  peptide_id: number;
  purity: number | null;
  lab_id: number | null;
  test_method: string | null;
  tested_at: string | null;
  source: string | null;
  source_url: string | null;
  status: string;
  submitted_at: string | null;
}

export interface ReviewsTable {
  id: string;
  vendor_id: number;
  rating: number;
  title: string;
  body: string;
  author: string;
  created_at: string;
}

export interface RepliesTable {
  review_id: string;
  body: string;
  created_at: string;
  /** The vendor's owning account that replied (null for imported replies). */
  account_id: number | null;
}

/** One CoA upload's verification (migration 0003). */
export interface CoaVerificationsTable {
  id: string;
  account_id: number;
  sha256: string;
  request_key: string;
  status: string;
  confidence: number;
  result: string;
  extracted: string | null;
  unreadable_reason: string | null;
  vendor_id: number | null;
  batch_key: string | null;
  file_path: string | null;
  created_at: string;
}

/** Events written in the transaction of their change; delivered by the webhook worker. */
export interface OutboxTable {
  seq: Generated<number>;
  /** Public id, `evt_` + 32 hex. */
  id: string;
  type: string;
  vendor_slug: string;
  /** JSON of the event's `data`. */
  data: string;
  created_at: string;
}

/** A webhook endpoint of an account (migration 0005). */
export interface WebhookEndpointsTable {
  id: string;
  account_id: number;
  url: string;
  /** JSON array of event types, or ["*"]. */
  events: string;
  description: string;
  enabled: Flag;
  disabled_reason: string | null;
  disabled_at: string | null;
  failing_since: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
  created_at: string;
  updated_at: string;
}

/** One event for one endpoint, with its delivery state (migration 0005). */
export interface WebhookMessagesTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: string;
  attempts: number;
  /** Epoch ms: when due, or while claimed the lease's end; null once settled. */
  next_attempt_at: number | null;
  claim_token: string | null;
  last_attempt_at: string | null;
  created_at: string;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  message_id: string;
  attempted_at: string;
  http_status: number | null;
  latency_ms: number;
  error: string | null;
  trigger: string;
}

export interface WebhookStateTable {
  id: number;
  outbox_seq: number;
}

export interface RateLimitHitsTable {
  key_id: string;
  scope: string;
  second: number;
  count: number;
}

export interface UsersTable {
  id: Generated<number>;
  /** Lower-cased and trimmed. */
  email: string;
  /** Null for operators. */
  account_id: number | null;
  /** 'owner' | 'member' | 'operator'. */
  role: string;
  /** scrypt, self-describing; null until an invitation is accepted. */
  password_hash: string | null;
  failed_sign_ins: Generated<number>;
  locked_until: string | null;
  disabled_at: string | null;
  created_at: string;
  last_sign_in_at: string | null;
  invited_by: string | null;
}

export interface UserLinksTable {
  /** Hex SHA-256 of the token in the link. */
  token_hash: string;
  user_id: number;
  /** 'invite' | 'reset'. */
  purpose: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SessionsTable {
  /** Hex SHA-256 of the cookie's value. */
  id_hash: string;
  user_id: number;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  /** Absolute expiry. */
  expires_at: string;
  address: string | null;
  user_agent: string | null;
}

export interface UsageHourlyTable {
  key_id: string;
  /** 'a' | 'b'. */
  scope: string;
  /** Epoch hours (ms / 3,600,000). */
  hour: number;
  requests: Generated<number>;
  limited: Generated<number>;
  /** Epoch ms of the hour's last request. */
  last_at: number | null;
}

/** The operator decision log (migration 0008, core/operator/actions.ts); append-only. */
export interface OperatorActionsTable {
  id: Generated<number>;
  /** ISO 8601: the write's time. */
  at: string;
  actor: string;
  /** An OperatorActionKind. */
  action: string;
  vendor_slug: string | null;
  /** A batch id, an override's field, an account's name. */
  subject: string;
  reason: string | null;
  /** JSON of the entry's ActionDetails. */
  details: string | null;
}

export interface Database {
  data_state: DataStateTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  vendors: VendorsTable;
  overrides: OverridesTable;
  score_history: ScoreHistoryTable;
  peptides: PeptidesTable;
  peptide_aliases: PeptideAliasesTable;
  labs: LabsTable;
  prices: PricesTable;
  price_changes: PriceChangesTable;
  batches: BatchesTable;
  reviews: ReviewsTable;
  replies: RepliesTable;
  rate_limit_hits: RateLimitHitsTable;
  outbox: OutboxTable;
  coa_verifications: CoaVerificationsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_state: WebhookStateTable;
  users: UsersTable;
  user_links: UserLinksTable;
  sessions: SessionsTable;
  usage_hourly: UsageHourlyTable;
  operator_actions: OperatorActionsTable;
}
