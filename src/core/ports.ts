import type { Account, Plan } from './accounts/model.ts';
import type { BatchRecord } from './batches/model.ts';
import type { LabEntry, PeptideEntry, VendorEntry } from './coa/directory.ts';
import type { Extraction, ReviewState, VerificationOutcome } from './coa/verification.ts';
import type { EventQuery, StoredEvent } from './events/model.ts';
import type { ImportBatch } from './import/records.ts';
import type { ApiKeyInfo, Principal, StoredAccountKey } from './keys/model.ts';
import type { ActionQuery, OperatorAction } from './operator/actions.ts';
import type { BatchAdminView, OverrideEntry, ReviewFacts, VendorAdminView } from './operator/model.ts';
import type { Peptide } from './peptides/model.ts';
import type { StoredPrice } from './prices/model.ts';
import type { PriceChange } from './prices/price-stats.ts';
import type { RateLimitStateStore } from './ratelimit/model.ts';
import type { OverrideMap } from './scoring/composite.ts';
import type { VendorEvidenceSums } from './scoring/evidence.ts';
import type { EvidenceCutoffs, MethodParams } from './scoring/method.ts';
import type { UsageStore } from './usage/ports.ts';
import type { SessionStore, UserStore } from './users/ports.ts';
import type { Vendor, VendorDetail } from './vendors/model.ts';
import type { DeliveryStore } from './webhooks/delivery-ports.ts';
import type { WebhookStore } from './webhooks/ports.ts';

/** Versions that tell every instance what it may still serve from memory. */
export interface DataState {
  dataVersion: number;
  keysVersion: number;
  /** Bumped by writes of labs, peptides or vendors: the CoA verifier's registry (directory.ts). */
  registryVersion: number;
  /** When catalog data last changed (ISO 8601): Variant B's `data_updated_at`. */
  dataUpdatedAt: string;
}

export interface StateStore {
  read(): Promise<DataState>;
  /**
   * True when another process or instance may have committed since the last read(): the hot path
   * asks this on every request, so it must be synchronous and cheap (SQLite: PRAGMA data_version;
   * PostgreSQL: a flag set by LISTEN/NOTIFY and a poll).
   */
  externalChangeSuspected(): boolean;
}

export interface AccountStore {
  create(input: {
    name: string;
    plan: Plan;
    rateLimitA?: number | null;
    rateLimitB?: number | null;
  }): Promise<Account>;
  findByName(name: string): Promise<Account | null>;
  findById(id: number): Promise<Account | null>;
  list(): Promise<Account[]>;
}

export interface KeyStore {
  insert(input: {
    id: string;
    accountId: number;
    name: string | null;
    prefix: string;
    hash: string;
    /** ISO 8601; default: the wall clock. */
    createdAt?: string;
  }): Promise<ApiKeyInfo>;
  /**
   * One indexed lookup; revoked keys are returned too (with revoked = true) so callers can tell. A
   * rolled key comes with its expiry (expiresAtMs), which the caller compares with the time.
   */
  findByHash(hash: string): Promise<(Principal & { revoked: boolean }) | null>;
  listForAccount(accountId: number): Promise<ApiKeyInfo[]>;
  /** Finds keys by id, display prefix or hash (revocation accepts any of them). */
  findForRevocation(ref: { id?: string; prefix?: string; hash?: string }): Promise<ApiKeyInfo[]>;
  /** Null when the key is missing or already revoked. `nowIso` defaults to the wall clock. */
  revoke(id: string, nowIso?: string): Promise<ApiKeyInfo | null>;
  /** An account's keys with their roll state, oldest first (the dashboard). */
  listAccountKeys(accountId: number): Promise<StoredAccountKey[]>;
  /** One key of the account's; another account's key is null, like a missing one. */
  findAccountKey(accountId: number, keyId: string): Promise<StoredAccountKey | null>;
  /**
   * Revokes a key of the account's in one transaction that bumps the keys version; null when it is
   * not the account's or already revoked.
   */
  revokeAccountKey(accountId: number, keyId: string, nowIso: string): Promise<StoredAccountKey | null>;
  /**
   * A roll, in ONE transaction: the old key (the account's, neither revoked nor rolled) gets
   * `expires_at` and `rolled_to` (and `revoked_at` too when `revokeNow`), the new key is inserted
   * and the keys version bumped. Null, and nothing written, when the old key does not qualify.
   */
  roll(input: {
    accountId: number;
    keyId: string;
    next: { id: string; name: string | null; prefix: string; hash: string };
    nowIso: string;
    expiresAtIso: string;
    revokeNow: boolean;
  }): Promise<{ old: StoredAccountKey; created: StoredAccountKey } | null>;
}

export interface CatalogStore {
  /** Every vendor with effective pillars and score, for the read model. */
  listVendors(): Promise<Vendor[]>;
  /** Vendors a write committed after data version `version` touched (incremental reloads). */
  listVendorsChangedSince(version: number): Promise<Vendor[]>;
  /** Composite history per vendor id, oldest first, newest `perVendor` of each. */
  scoreHistories(perVendor: number): Promise<Map<number, number[]>>;
  getVendorDetail(slug: string, historyLength: number): Promise<VendorDetail | null>;
  getPeptide(slug: string): Promise<Peptide | null>;
  listPeptides(): Promise<Peptide[]>;
  /** Changes whenever a peptide (or its aliases) is written: readers reuse their list while it holds. */
  peptidesStamp(): Promise<string>;
  /** Every stored listing of a peptide, both sources, with vendor display facts. */
  listPrices(peptideId: number): Promise<StoredPrice[]>;
  /** Which vendors sell which peptides (a listing of either source), as id pairs. */
  listOfferings(vendorIds?: readonly number[]): Promise<{ peptideId: number; vendorId: number }[]>;
  /** Evidence shown in Variant A's vendor report. */
  vendorEvidence(vendorId: number, recent: number): Promise<VendorEvidence>;
  /**
   * What the scoring engine reads for one vendor at the cutoffs' time: its evidence sums (the same
   * queries the recomputation runs) and the operator's overrides (the MCP tool explain_score).
   */
  scoreInputs(
    vendorId: number,
    cut: EvidenceCutoffs,
    method: MethodParams,
  ): Promise<{ evidence: VendorEvidenceSums; overrides: OverrideMap }>;
}

export interface PriceHistoryStore {
  /** A peptide's kept listing changes effective before `beforeIso`, with vendor facts. */
  listPriceChanges(peptideId: number, beforeIso: string): Promise<PriceChange[]>;
}

export interface VendorEvidence {
  /** Approved CoAs (batches) on record. */
  coaCount: number;
  /** Names of the peptides the vendor lists, by name. */
  peptideNames: string[];
  /** Newest approved or pending batches (rejected ones are not evidence), newest first. */
  recent: BatchRecord[];
}

export interface BatchStore {
  /** All records whose batch_key equals `key` (optionally of one vendor), in no particular order. */
  findByKey(key: string, vendorSlug?: string): Promise<BatchRecord[]>;
  /** Whether a vendor with this slug exists (a lookup's `?vendor=` must name one). */
  vendorExists(slug: string): Promise<boolean>;
}

export interface ImportCounts {
  [type: string]: number;
}

export interface ImportStore {
  /** Natural keys that already exist, for reference checks before anything is written. */
  existingKeys(batch: ImportBatch): Promise<ExistingKeys>;
  /**
   * Applies one validated import in ONE transaction: upserts, score recomputation of affected
   * vendors (with history), and a data-version bump. All or nothing.
   */
  apply(batch: ImportBatch, opts: { nowIso: string; reason: string }): Promise<ImportCounts>;
}

export interface ExistingKeys {
  accounts: Set<string>;
  vendors: Set<string>;
  peptides: Set<string>;
  labs: Set<string>;
  reviews: Set<string>;
}

/**
 * Preconditions of an operator write. The store reads their facts inside the write transaction
 * (under its write lock) and the core checks them (core/import/write-rules.ts), so two concurrent
 * requests cannot both see them hold. Failing one is a DomainError (`conflict`, or `not_found`
 * for an account) and nothing is written.
 */
export interface WriteExpectations {
  /** Review ids that must not exist yet. */
  newReviews?: string[];
  /** Reviews that must not have a reply yet. */
  unrepliedReviews?: string[];
  /** Batches that must still be pending. */
  pendingBatches?: { vendorSlug: string; batchId: string }[];
  /** Batches that must not exist yet (a CoA upload queuing a new submission). */
  newBatches?: { vendorSlug: string; batchId: string }[];
  /** Accounts that must exist (the write path would create them), and still have `plan` if given. */
  accounts?: { name: string; plan?: Plan }[];
}

/** Reads the operator API needs; its writes go through the import path (one write path). */
export interface OperatorStore {
  account(name: string): Promise<Account | null>;
  vendor(slug: string, historyLength: number): Promise<VendorAdminView | null>;
  listOverrides(vendorSlug?: string): Promise<OverrideEntry[]>;
  review(id: string): Promise<ReviewFacts | null>;
  batch(vendorSlug: string, batchId: string): Promise<BatchAdminView | null>;
  /** A vendor's approved batches, newest test first. */
  approvedBatches(vendorSlug: string, limit: number): Promise<BatchAdminView[]>;
  /** Pending submissions, oldest first. */
  pendingBatches(limit: number, offset: number): Promise<{ total: number; items: BatchAdminView[] }>;
  events(q: EventQuery): Promise<StoredEvent[]>;
  /**
   * The operator decision log (core/operator/actions.ts), newest first, at most `q.limit` entries.
   * Its entries are written by the write transactions themselves (RecordWriter's `log`).
   */
  actions(q: ActionQuery): Promise<OperatorAction[]>;
}

/** A verification row as stored (core/coa/verify-coa.ts writes and reads it). */
export interface StoredVerification {
  id: string;
  accountId: number;
  sha256: string;
  requestKey: string;
  outcome: VerificationOutcome;
  extraction: Extraction;
  filePath: string | null;
  createdAt: string;
}

/** Storage of CoA verifications, and the registry reads the verifier matches against. */
export interface CoaStore {
  /** The library, lab registry and vendor names (verify-coa.ts caches them per registry version). */
  directory(): Promise<{ peptides: PeptideEntry[]; labs: LabEntry[]; vendors: VendorEntry[] }>;
  /** The account's earlier verification of the same file with the same fields. */
  findUpload(accountId: number, sha256: string, requestKey: string): Promise<StoredVerification | null>;
  /** What the account's earlier upload of the same file yielded (any fields). */
  findExtraction(accountId: number, sha256: string): Promise<Extraction | null>;
  /**
   * Stores a verification. When the same account stored the same upload meanwhile (a race), keeps
   * that one and returns it; otherwise returns the row given.
   */
  insert(v: StoredVerification): Promise<StoredVerification>;
  /** Replaces a stored verification (same id and account) with a new decision. */
  replace(v: StoredVerification): Promise<void>;
  /** Submissions awaiting review that the account's uploads queued or joined. */
  openSubmissions(accountId: number): Promise<number>;
  /** A verification of the account's, with its submission's review state now. */
  get(accountId: number, id: string): Promise<(StoredVerification & { review: ReviewState | null }) | null>;
  /** The account's verifications, newest first, with their submissions' review state now (the dashboard). */
  list(
    accountId: number,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; items: (StoredVerification & { review: ReviewState | null })[] }>;
}

/** The storage the core depends on; implemented once with Kysely for SQLite and PostgreSQL. */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  state: StateStore;
  accounts: AccountStore;
  keys: KeyStore;
  catalog: CatalogStore;
  batches: BatchStore;
  imports: ImportStore;
  rateLimits: RateLimitStateStore;
  operator: OperatorStore;
  coa: CoaStore;
  webhooks: WebhookStore;
  /** The delivery worker's fan-out, claims and outcomes (src/worker/). */
  deliveries: DeliveryStore;
  /** People who sign in to the pages, their one-time links (issue [8]). */
  users: UserStore;
  /** Their sessions. */
  sessions: SessionStore;
  /** Usage per key, variant and hour (issue [8]). */
  usage: UsageStore;
  /** Kept changes of price listings, read by the price statistics (issue [10]). */
  priceHistory: PriceHistoryStore;
  close(): Promise<void>;
}
