import type { Kysely } from 'kysely';
import type { LabEntry, PeptideEntry, VendorEntry } from '../../core/coa/directory.ts';
import type { Extraction, ReviewState, VerificationOutcome } from '../../core/coa/verification.ts';
import { batchKey } from '../../core/import/records.ts';
import type { CoaStore, StoredVerification } from '../../core/ports.ts';
import type { Database } from '../schema.ts';

type Row = Database['coa_verifications'];

/** CoA verifications; the outcome and the extraction are JSON columns written only from core types. */
export class KyselyCoaStore implements CoaStore {
  constructor(private readonly db: Kysely<Database>) {}

  async directory(): Promise<{ peptides: PeptideEntry[]; labs: LabEntry[]; vendors: VendorEntry[] }> {
    const [peptides, aliases, labs, vendors] = await Promise.all([
      this.db.selectFrom('peptides').select(['id', 'slug', 'name']).execute(),
      this.db.selectFrom('peptide_aliases').select(['peptide_id', 'alias']).execute(),
      this.db.selectFrom('labs').select(['slug', 'name', 'trusted', 'flagged', 'verify_url']).execute(),
      this.db.selectFrom('vendors').select(['slug', 'name']).execute(),
    ]);
    const byPeptide = new Map<number, string[]>();
    for (const a of aliases) {
      const list = byPeptide.get(a.peptide_id);
      if (list) list.push(a.alias);
      else byPeptide.set(a.peptide_id, [a.alias]);
    }
    return {
      peptides: peptides.map((p) => ({ slug: p.slug, name: p.name, aliases: byPeptide.get(p.id) ?? [] })),
      labs: labs.map((l) => ({
        slug: l.slug,
        name: l.name,
        trusted: Number(l.trusted) === 1,
        flagged: Number(l.flagged) === 1,
        verifyUrl: l.verify_url,
      })),
      vendors,
    };
  }

  async findUpload(
    accountId: number,
    sha256: string,
    requestKey: string,
  ): Promise<StoredVerification | null> {
    const r = await this.db
      .selectFrom('coa_verifications')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('sha256', '=', sha256)
      .where('request_key', '=', requestKey)
      .executeTakeFirst();
    return r ? fromRow(r) : null;
  }

  async findExtraction(accountId: number, sha256: string): Promise<Extraction | null> {
    const r = await this.db
      .selectFrom('coa_verifications')
      .select(['extracted', 'unreadable_reason'])
      .where('account_id', '=', accountId)
      .where('sha256', '=', sha256)
      .limit(1)
      .executeTakeFirst();
    return r ? extractionOf(r) : null;
  }

  async insert(v: StoredVerification): Promise<StoredVerification> {
    const res = await this.db
      .insertInto('coa_verifications')
      .values(this.columns(v))
      .onConflict((oc) => oc.columns(['account_id', 'sha256', 'request_key']).doNothing())
      .executeTakeFirst();
    if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0) return v;
    return (await this.findUpload(v.accountId, v.sha256, v.requestKey)) ?? v;
  }

  async replace(v: StoredVerification): Promise<void> {
    const { id: _id, account_id: _a, ...rest } = this.columns(v);
    await this.db
      .updateTable('coa_verifications')
      .set(rest)
      .where('id', '=', v.id)
      .where('account_id', '=', v.accountId)
      .execute();
  }

  async openSubmissions(accountId: number): Promise<number> {
    const r = await this.db
      .selectFrom('coa_verifications as c')
      .innerJoin('batches as b', (j) =>
        j.onRef('b.vendor_id', '=', 'c.vendor_id').onRef('b.batch_key', '=', 'c.batch_key'),
      )
      .select((eb) => eb.fn.count<number>('b.id').distinct().as('n'))
      .where('c.account_id', '=', accountId)
      .where('b.status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  private columns(v: StoredVerification) {
    return {
      id: v.id,
      account_id: v.accountId,
      sha256: v.sha256,
      request_key: v.requestKey,
      status: v.outcome.status,
      confidence: v.outcome.confidence,
      result: JSON.stringify(v.outcome),
      extracted: v.extraction.ok ? JSON.stringify(v.extraction) : null,
      unreadable_reason: v.extraction.ok ? null : v.extraction.reason,
      vendor_id: v.outcome.submission
        ? this.db.selectFrom('vendors').select('id').where('slug', '=', v.outcome.submission.vendorSlug)
        : null,
      batch_key: v.outcome.submission ? batchKey(v.outcome.submission.batchId) : null,
      file_path: v.filePath,
      created_at: v.createdAt,
    };
  }

  async get(
    accountId: number,
    id: string,
  ): Promise<(StoredVerification & { review: ReviewState | null }) | null> {
    const r = await this.withReview(accountId).where('c.id', '=', id).executeTakeFirst();
    return r ? { ...fromRow(r), review: reviewOf(r) } : null;
  }

  async list(
    accountId: number,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; items: (StoredVerification & { review: ReviewState | null })[] }> {
    const [count, rows] = await Promise.all([
      this.db
        .selectFrom('coa_verifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow(),
      this.withReview(accountId)
        .orderBy('c.created_at', 'desc')
        .orderBy('c.id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
    ]);
    return { total: Number(count.n), items: rows.map((r) => ({ ...fromRow(r), review: reviewOf(r) })) };
  }

  /** The account's verifications with the state of the submission each queued or joined. */
  private withReview(accountId: number) {
    return this.db
      .selectFrom('coa_verifications as c')
      .leftJoin('batches as b', (j) =>
        j.onRef('b.vendor_id', '=', 'c.vendor_id').onRef('b.batch_key', '=', 'c.batch_key'),
      )
      .leftJoin('vendors as v', 'v.id', 'b.vendor_id')
      .selectAll('c')
      .select(['b.status as review_status', 'b.batch_id as review_batch', 'v.slug as review_vendor'])
      .where('c.account_id', '=', accountId);
  }
}

function reviewOf(r: {
  review_status: string | null;
  review_batch: string | null;
  review_vendor: string | null;
}): ReviewState | null {
  if (!r.review_status || !r.review_batch || !r.review_vendor) return null;
  return {
    state:
      r.review_status === 'approved' ? 'approved' : r.review_status === 'rejected' ? 'rejected' : 'pending',
    vendorSlug: r.review_vendor,
    batchId: r.review_batch,
  };
}

function extractionOf(r: Pick<Row, 'extracted' | 'unreadable_reason'>): Extraction {
  if (r.extracted !== null) return JSON.parse(r.extracted) as Extraction;
  return {
    ok: false,
    reason: (r.unreadable_reason ?? 'corrupt') as Extract<Extraction, { ok: false }>['reason'],
  };
}

function fromRow(r: Row): StoredVerification {
  return {
    id: r.id,
    accountId: Number(r.account_id),
    sha256: r.sha256,
    requestKey: r.request_key,
    outcome: JSON.parse(r.result) as VerificationOutcome,
    extraction: extractionOf(r),
    filePath: r.file_path,
    createdAt: r.created_at,
  };
}
