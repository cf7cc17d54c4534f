import { createHash, randomBytes } from 'node:crypto';
import { MAX_BATCH_ID_LENGTH } from '../batches/model.ts';
import type { Clock } from '../clock.ts';
import { DomainError, invalidParameter, notFound } from '../errors.ts';
import { batchKey, isSlug } from '../import/records.ts';
import { type RecordWriter, writeRecords } from '../import/write-records.ts';
import type { BatchStore, CoaStore, StateStore, StoredVerification } from '../ports.ts';
import { type Decision, decide, type ResolvedRequest } from './decide.ts';
import { Directory } from './directory.ts';
import type { PdfReader } from './model.ts';
import { Turns } from './turns.ts';
import type {
  CoaRequest,
  Extraction,
  Verification,
  VerificationOutcome,
  VerificationStatus,
} from './verification.ts';

/** Where uploaded files are kept when the operator turns that on (COA_STORE_FILES). */
export interface CoaFileStore {
  /** Stores the bytes under their SHA-256; returns the path it keeps them at. Idempotent. */
  put(sha256: string, bytes: Uint8Array): Promise<string>;
}

export interface CoaVerifierDeps {
  store: CoaStore;
  batches: Pick<BatchStore, 'findByKey'>;
  state: StateStore;
  reader: PdfReader;
  writer: RecordWriter;
  clock: Clock;
  staleAfterDays: number;
  files: CoaFileStore | null;
  /** Submissions awaiting review one account's uploads may have open at once. */
  maxOpenSubmissions: number;
  /** Called after a committed write (a queued submission), so this instance serves it at once. */
  afterWrite?: () => Promise<void>;
}

export interface CoaUpload {
  accountId: number;
  file: Uint8Array;
  request: CoaRequest;
  /** Aborts when the client has gone: a document still waiting for a worker is then not read. */
  signal?: AbortSignal;
  /**
   * The file's SHA-256 (hex) when the caller hashed it as it arrived, chunk by chunk, rather than
   * in one 10 MB stretch of the main thread here.
   */
  sha256?: string;
}

/** The most verifications one page of the list shows. */
export const MAX_LIST_LIMIT = 100;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what we refuse
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * CoA verification by upload (issue [6]): the request's names are resolved first (a bad field costs
 * no parsing), the same file with the same fields answers the earlier result, a file seen before is
 * not parsed again (unless a time or memory limit cut its reading short), and a plausible,
 * uncorroborated document is queued for operator review through the one write path.
 */
export class CoaVerifier {
  private directoryCache: { version: number; directory: Directory } | null = null;
  private directoryBuild: { version: number; promise: Promise<Directory> } | null = null;
  /** Where an upload lets other requests through: one upload's piece per turn (turns.ts). */
  private readonly turns = new Turns();

  /**
   * Verifications answered since start, by status (an upload refused before a verdict, e.g. a full
   * review queue, is not one). Plain numbers the metrics read at scrape time (http/metrics/).
   */
  readonly verified: Record<VerificationStatus, number> = {
    verified: 0,
    mismatch: 0,
    rejected: 0,
    pending_review: 0,
    unreadable: 0,
  };

  constructor(private readonly deps: CoaVerifierDeps) {}

  async verify(upload: CoaUpload): Promise<Verification> {
    const v = await this.verifyUpload(upload);
    this.verified[v.status] += 1;
    return v;
  }

  private async verifyUpload(upload: CoaUpload): Promise<Verification> {
    const { accountId, file } = upload;
    const request = this.checkFields(upload.request);
    // The form was just read in the same turn of the event loop: the lookups below wait one turn,
    // so a request that came in meanwhile is not held behind both (see decideAndKeep).
    await this.turns.next();
    const directory = await this.directory();
    const resolved = resolve(directory, request);
    const sha256 = upload.sha256 ?? createHash('sha256').update(file).digest('hex');
    const requestKey = fingerprint(resolved);

    // A result that a limit cut short (time, memory: the machine may have been busy) is not the
    // document's verdict: it is read again, and the verification keeps its id.
    const earlier = await this.deps.store.findUpload(accountId, sha256, requestKey);
    if (earlier && !cutShort(earlier.extraction)) return this.get(accountId, earlier.id);
    const known = await this.deps.store.findExtraction(accountId, sha256);
    const extraction = known && !cutShort(known) ? known : await this.extract(file, upload.signal);
    return this.decideAndKeep({
      id: earlier?.id ?? `ver_${randomBytes(16).toString('hex')}`,
      replaces: earlier !== null,
      accountId,
      sha256,
      requestKey,
      request: resolved,
      extraction,
      directory,
      file,
      filePath: null,
      createdAt: earlier?.createdAt ?? null,
      submission: earlier?.outcome.submission ?? null,
    });
  }

  /**
   * Decides a read document against the records on file, queues it for review when it is
   * plausible and uncorroborated, and stores the verdict (new, or replacing the one it re-decides).
   */
  private async decideAndKeep(v: {
    id: string;
    replaces: boolean;
    accountId: number;
    sha256: string;
    requestKey: string;
    request: ResolvedRequest;
    extraction: Extraction;
    directory: Directory;
    file: Uint8Array | null;
    filePath: string | null;
    createdAt: string | null;
    /** The submission the verdict it replaces was queued in: it stays linked. */
    submission: VerificationOutcome['submission'];
    /** Deciding again after a review: never queues, and a verdict still pending is not rewritten. */
    again?: boolean;
    /** Already decided once and found the batch written meanwhile. */
    retried?: boolean;
  }): Promise<Verification> {
    const fields = v.extraction.ok ? v.extraction.fields : null;
    const records = fields?.batch ? await this.deps.batches.findByKey(batchKey(fields.batch)) : [];
    const nowMs = this.deps.clock.now();
    const { outcome, queue } = decide({
      request: v.request,
      extraction: v.extraction,
      directory: v.directory,
      records,
      nowMs,
      staleAfterDays: this.deps.staleAfterDays,
    });
    if (v.again && (outcome.status === 'pending_review' || queue)) return this.read(v.accountId, v.id);
    if (
      outcome.status === 'pending_review' &&
      outcome.submission === null &&
      !outcome.notes.some((n) => n.code === 'no_record')
    ) {
      // Nothing would ever review it: say what is missing instead of a verdict that never moves.
      throw invalidParameter(
        'vendor',
        `is needed for this document: it is not on file, so it goes to review as a submission of its vendor, and ${
          fields?.client ? `its client "${fields.client}" is not a vendor we list` : 'it names no client'
        }. Send the vendor's slug (GET /v1/vendors lists them).`,
      );
    }
    const createdAt = v.createdAt ?? new Date(nowMs).toISOString();
    // On SQLite every query below runs synchronously on the main thread, and without a turn of the
    // event loop between them an upload's decision, its write and its verdict's row were one
    // stretch of several milliseconds that every other request (a cached list) waited behind.
    // A turn before the write and one after it let those requests through in between.
    await this.turns.next();
    if (queue && (await this.deps.store.openSubmissions(v.accountId)) >= this.deps.maxOpenSubmissions) {
      // Each queued upload is public (B's `pending`, A's recent_coas) and costs a reviewer's time:
      // one account cannot fill the queue faster than operators empty it.
      throw new DomainError(
        'rate_limited',
        `This account has ${this.deps.maxOpenSubmissions} CoA submissions awaiting review; new ones are taken as operators decide those.`,
        { retryAfterSeconds: 3600 },
      );
    }
    if (queue) {
      // Through the import path: the same validation, write rules (a batch decided meanwhile stays
      // decided), recomputation and events as any other write.
      try {
        await this.queue(queue, v.id, nowMs);
      } catch (e) {
        // Another upload or an operator wrote this batch since it was looked up: decide again
        // against what is there now (it joins that submission, or meets the decision).
        if (e instanceof DomainError && e.code === 'conflict' && !v.retried) {
          return this.decideAndKeep({ ...v, retried: true });
        }
        throw e;
      }
      await this.turns.next();
    }
    const filePath =
      v.filePath ?? (this.deps.files && v.file ? await this.deps.files.put(v.sha256, v.file) : null);
    const stored: StoredVerification = {
      id: v.id,
      accountId: v.accountId,
      sha256: v.sha256,
      requestKey: v.requestKey,
      outcome: { ...outcome, submission: outcome.submission ?? v.submission, request: requestOf(v.request) },
      extraction: v.extraction,
      filePath,
      createdAt,
    };
    if (v.replaces) {
      await this.deps.store.replace(stored);
      return this.read(v.accountId, v.id);
    }
    const kept = await this.deps.store.insert(stored);
    return this.read(v.accountId, kept.id);
  }

  /** Queues a plausible, uncorroborated document as a pending submission (the one write path). */
  private async queue(q: NonNullable<Decision['queue']>, id: string, nowMs: number): Promise<void> {
    await writeRecords(
      {
        writer: this.deps.writer,
        clock: this.deps.clock,
        ...(this.deps.afterWrite ? { afterWrite: this.deps.afterWrite } : {}),
      },
      [
        {
          type: 'batch',
          vendorSlug: q.vendorSlug,
          batchId: q.batchId,
          peptideSlug: q.peptideSlug,
          status: 'pending',
          purity: q.purity,
          lab: q.labSlug,
          testMethod: q.testMethod,
          testedAt: q.testedAt,
          source: 'CoA upload',
          submittedAt: new Date(nowMs).toISOString(),
        },
      ],
      {
        reason: `CoA upload ${id}`,
        // Decided against no record: if another upload (or an operator) wrote this batch since,
        // the write is refused and the document is decided again against what is there now.
        expect: { newBatches: [{ vendorSlug: q.vendorSlug, batchId: q.batchId }] },
      },
    );
  }

  /**
   * The account's verification; another account's is as unknown as one that does not exist. A
   * document that went to review and has since been decided is decided again (from what was read,
   * not read again), so its status follows the operator's decision.
   */
  async get(accountId: number, id: string): Promise<Verification> {
    const v = await this.read(accountId, id);
    if (v.status !== 'pending_review' || !v.review || v.review.state === 'pending' || !v.request) return v;
    const stored = await this.deps.store.findUpload(accountId, v.sha256, v.requestKey);
    if (!stored) return v;
    const directory = await this.directory();
    let request: ResolvedRequest;
    try {
      // Against the vendor whose submission was reviewed, whatever the client line matches now.
      request = resolve(directory, { ...v.request, vendor: v.review.vendorSlug });
    } catch {
      return v; // The peptide or vendor it named is gone: the verdict stays as it was.
    }
    return this.decideAndKeep({
      again: true,
      id: v.id,
      replaces: true,
      accountId,
      sha256: v.sha256,
      requestKey: v.requestKey,
      request,
      extraction: stored.extraction,
      directory,
      file: null,
      filePath: stored.filePath,
      createdAt: v.createdAt,
      submission: v.submission,
    }).catch(() => v);
  }

  /**
   * The account's verifications, newest first (the dashboard's list). Each shows its submission's
   * review state now; one whose review has been decided is decided again as `get` does, so the
   * list and the detail never disagree (at most `limit` of them, and each only once: the new
   * verdict is stored).
   */
  async list(
    accountId: number,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; items: Verification[] }> {
    if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > MAX_LIST_LIMIT)
      throw invalidParameter('limit', `must be a whole number from 1 to ${MAX_LIST_LIMIT}.`);
    if (!Number.isSafeInteger(page.offset) || page.offset < 0)
      throw invalidParameter('offset', 'must be a whole number, 0 or more.');
    const { total, items } = await this.deps.store.list(accountId, page);
    const out: Verification[] = [];
    for (const v of items) {
      const shown: Verification = { ...v.outcome, id: v.id, createdAt: v.createdAt, review: v.review };
      const decided = shown.status === 'pending_review' && v.review !== null && v.review.state !== 'pending';
      out.push(decided ? await this.get(accountId, v.id).catch(() => shown) : shown);
    }
    return { total, items: out };
  }

  private async read(
    accountId: number,
    id: string,
  ): Promise<Verification & { sha256: string; requestKey: string }> {
    const v = /^ver_[0-9a-f]{32}$/.test(id) ? await this.deps.store.get(accountId, id) : null;
    if (!v) throw notFound('Verification', id);
    return {
      ...v.outcome,
      id: v.id,
      createdAt: v.createdAt,
      review: v.review,
      sha256: v.sha256,
      requestKey: v.requestKey,
    };
  }

  private checkFields(r: CoaRequest): CoaRequest {
    const text = (name: string, v: string, max: number): string => {
      const t = v.normalize('NFKC').trim();
      if (t === '') throw invalidParameter(name, 'must not be empty.');
      if (t.length > max) throw invalidParameter(name, `must be at most ${max} characters long.`);
      if (CONTROL.test(t)) throw invalidParameter(name, 'must not contain control characters.');
      return t;
    };
    return {
      peptide: text('peptide', r.peptide, 100),
      batchId: r.batchId === null ? null : text('batch_id', r.batchId, MAX_BATCH_ID_LENGTH),
      vendor: r.vendor === null ? null : text('vendor', r.vendor, 100),
    };
  }

  private async extract(file: Uint8Array, signal?: AbortSignal): Promise<Extraction> {
    const read = await this.deps.reader.read(file, signal);
    if (!read.ok) {
      if (read.reason === 'busy') {
        throw new DomainError(
          'service_unavailable',
          'Too many certificates are being read right now; retry in a few seconds.',
        );
      }
      return { ok: false, reason: read.reason };
    }
    return read;
  }

  /**
   * The registry as of now: rebuilt only when labs, peptides or vendors were written (a queued
   * submission changes none of them), once at a time however many uploads ask.
   */
  private async directory(): Promise<Directory> {
    const { registryVersion } = await this.deps.state.read();
    const cached = this.directoryCache;
    if (cached?.version === registryVersion) return cached.directory;
    if (this.directoryBuild?.version === registryVersion) return this.directoryBuild.promise;
    const promise = this.deps.store.directory().then((d) => {
      const directory = new Directory(d.peptides, d.labs, d.vendors);
      if (!this.directoryCache || this.directoryCache.version < registryVersion) {
        this.directoryCache = { version: registryVersion, directory };
      }
      return directory;
    });
    this.directoryBuild = { version: registryVersion, promise };
    try {
      return await promise;
    } finally {
      if (this.directoryBuild?.promise === promise) this.directoryBuild = null;
    }
  }
}

function resolve(directory: Directory, r: CoaRequest): ResolvedRequest {
  const peptide = directory.peptideNamed(r.peptide);
  if (!peptide) {
    throw invalidParameter(
      'peptide',
      `names no peptide in the library ('${r.peptide}'); use a slug, name or alias from GET /v1/peptides.`,
    );
  }
  let vendor = null;
  if (r.vendor !== null) {
    vendor = isSlug(r.vendor) ? directory.vendor(r.vendor) : null;
    if (!vendor) throw invalidParameter('vendor', `names no vendor ('${r.vendor}'); use a vendor slug.`);
  }
  return { peptide, batchId: r.batchId, vendor };
}

/** The request as stored with its verdict, so it can be decided again. */
const requestOf = (r: ResolvedRequest): CoaRequest => ({
  peptide: r.peptide.slug,
  batchId: r.batchId,
  vendor: r.vendor?.slug ?? null,
});

/** Whether a read ended at a limit of the moment rather than at something in the document. */
const cutShort = (e: Extraction): boolean =>
  !e.ok && (e.reason === 'time_limit' || e.reason === 'memory_limit');

/** Requests that mean the same (peptide by slug, batch as matched, vendor) share a fingerprint. */
const fingerprint = (r: ResolvedRequest): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        r.peptide.slug,
        r.batchId === null ? null : batchKey(r.batchId),
        r.vendor?.slug ?? null,
      ]),
    )
    .digest('hex');
