import type { Kysely } from 'kysely';
import type { Account } from '../../core/accounts/model.ts';
import type { VerificationOutcome } from '../../core/coa/verification.ts';
import type { EventQuery, StoredEvent } from '../../core/events/model.ts';
import { batchKey, type OverrideField } from '../../core/import/records.ts';
import type { ActionQuery, OperatorAction } from '../../core/operator/actions.ts';
import type {
  BatchAdminView,
  OverrideEntry,
  ReviewFacts,
  UploadSummary,
  VendorAdminView,
} from '../../core/operator/model.ts';
import type { OperatorStore } from '../../core/ports.ts';
import type { ListingPlan } from '../../core/vendors/model.ts';
import type { Database } from '../schema.ts';
import { toAccount } from './key-store.ts';
import { listActions } from './operator-actions.ts';
import { KyselyOutboxStore } from './outbox-store.ts';

const num = (v: number | null): number | null => (v === null ? null : Number(v));

/** CoA uploads listed per pending submission (uploadsTotal counts them all). */
const UPLOADS_SHOWN = 20;

/** The operator API's reads. Writes go through the import store, so every write is one path. */
export class KyselyOperatorStore implements OperatorStore {
  private readonly outbox: KyselyOutboxStore;
  constructor(private readonly db: Kysely<Database>) {
    this.outbox = new KyselyOutboxStore(db);
  }

  async account(name: string): Promise<Account | null> {
    const a = await this.db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
    return a ? toAccount(a) : null;
  }

  async vendor(slug: string, historyLength: number): Promise<VendorAdminView | null> {
    const v = await this.db
      .selectFrom('vendors as v')
      .leftJoin('accounts as a', 'a.id', 'v.owner_account_id')
      .selectAll('v')
      .select('a.name as owner')
      .where('v.slug', '=', slug)
      .executeTakeFirst();
    if (!v) return null;
    const history = await this.db
      .selectFrom('score_history')
      .select(['score', 'reason', 'recorded_at'])
      .where('vendor_id', '=', v.id)
      .orderBy('id', 'desc')
      .limit(historyLength)
      .execute();
    const eff = [v.eff_coa, v.eff_purity, v.eff_sentiment, v.eff_transparency, v.eff_experience];
    const scored = v.score !== null && eff.every((x) => x !== null);
    return {
      slug: v.slug,
      name: v.name,
      verified: v.verified === 1,
      pending: v.pending === 1,
      verifiedAt: v.verified_at,
      listingPlan: v.listing_plan as ListingPlan,
      ownerAccount: v.owner,
      computed: {
        coa: num(v.coa),
        purity: num(v.purity),
        sentiment: num(v.sentiment),
        transparency: num(v.transparency),
        experience: num(v.experience),
      },
      pillars: scored
        ? {
            coa: Number(v.eff_coa),
            purity: Number(v.eff_purity),
            sentiment: Number(v.eff_sentiment),
            transparency: Number(v.eff_transparency),
            experience: Number(v.eff_experience),
          }
        : null,
      score: scored ? Number(v.score) : null,
      overrides: await this.listOverrides(slug),
      history: history
        .reverse()
        .map((h) => ({ score: Number(h.score), reason: h.reason, recordedAt: h.recorded_at })),
    };
  }

  async listOverrides(vendorSlug?: string): Promise<OverrideEntry[]> {
    const rows = await this.db
      .selectFrom('overrides as o')
      .innerJoin('vendors as v', 'v.id', 'o.vendor_id')
      .select(['v.slug', 'o.field', 'o.value', 'o.reason', 'o.set_by', 'o.created_at'])
      .$if(vendorSlug !== undefined, (q) => q.where('v.slug', '=', vendorSlug!))
      .orderBy('v.slug')
      .orderBy('o.field')
      .execute();
    return rows.map((r) => ({
      vendorSlug: r.slug,
      field: r.field as OverrideField,
      value: Number(r.value),
      reason: r.reason,
      setBy: r.set_by,
      setAt: r.created_at,
    }));
  }

  async review(id: string): Promise<ReviewFacts | null> {
    const r = await this.db
      .selectFrom('reviews as r')
      .innerJoin('vendors as v', 'v.id', 'r.vendor_id')
      .leftJoin('accounts as a', 'a.id', 'v.owner_account_id')
      .leftJoin('replies as p', 'p.review_id', 'r.id')
      .select(['r.id', 'v.slug', 'a.name as owner', 'p.review_id as replied'])
      .where('r.id', '=', id)
      .executeTakeFirst();
    if (!r) return null;
    return { id: r.id, vendorSlug: r.slug, ownerAccount: r.owner, hasReply: r.replied !== null };
  }

  private batchQuery() {
    return this.db
      .selectFrom('batches as b')
      .innerJoin('vendors as v', 'v.id', 'b.vendor_id')
      .innerJoin('peptides as p', 'p.id', 'b.peptide_id')
      .leftJoin('labs as l', 'l.id', 'b.lab_id')
      .select([
        'v.slug as vendor_slug',
        'b.batch_id',
        'p.slug as peptide_slug',
        'b.status',
        'b.purity',
        'l.slug as lab_slug',
        'b.test_method',
        'b.tested_at',
        'b.source',
        'b.source_url',
        'b.submitted_at',
      ]);
  }

  async batch(vendorSlug: string, batchId: string): Promise<BatchAdminView | null> {
    const r = await this.batchQuery()
      .where('v.slug', '=', vendorSlug)
      .where('b.batch_key', '=', batchKey(batchId))
      .executeTakeFirst();
    return r ? toView(r) : null;
  }

  async approvedBatches(vendorSlug: string, limit: number): Promise<BatchAdminView[]> {
    const rows = await this.batchQuery()
      .where('v.slug', '=', vendorSlug)
      .where('b.status', '=', 'approved')
      .orderBy('b.tested_at', 'desc')
      .orderBy('b.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toView);
  }

  async pendingBatches(limit: number, offset: number): Promise<{ total: number; items: BatchAdminView[] }> {
    const count = await this.db
      .selectFrom('batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const rows = await this.batchQuery()
      .where('b.status', '=', 'pending')
      .orderBy('b.submitted_at')
      .orderBy('b.id')
      .limit(limit)
      .offset(offset)
      .execute();
    const items = rows.map(toView);
    const totals = new Map<string, number>();
    const uploads = await this.uploadsOf(items, totals);
    for (const b of items) {
      const key = `${b.vendorSlug}\n${batchKey(b.batchId)}`;
      b.uploads = uploads.get(key) ?? [];
      b.uploadsTotal = totals.get(key) ?? 0;
    }
    return { total: Number(count.n), items };
  }

  /** The CoA uploads attached to these submissions, by vendor slug and batch key. */
  private async uploadsOf(
    items: readonly BatchAdminView[],
    totals: Map<string, number>,
  ): Promise<Map<string, UploadSummary[]>> {
    const out = new Map<string, UploadSummary[]>();
    if (items.length === 0) return out;
    // At most UPLOADS_SHOWN per submission (the first ones: the upload that queued it comes first),
    // with the total: a key attaching thousands of files to one submission cannot make the
    // reviewer's page, or the work behind it, grow with them.
    const rows = await this.db
      .selectFrom((qb) =>
        qb
          .selectFrom('coa_verifications as c')
          .innerJoin('vendors as v', 'v.id', 'c.vendor_id')
          .innerJoin('accounts as a', 'a.id', 'c.account_id')
          .select((eb) => [
            'v.slug as slug',
            'c.batch_key as batch_key',
            'c.id as id',
            'a.name as name',
            'c.created_at as created_at',
            'c.result as result',
            'c.sha256 as sha256',
            'c.file_path as file_path',
            eb.fn
              .agg<number>('row_number')
              .over((ob) =>
                ob.partitionBy(['c.vendor_id', 'c.batch_key']).orderBy('c.created_at').orderBy('c.id'),
              )
              .as('rn'),
            eb.fn
              .countAll<number>()
              .over((ob) => ob.partitionBy(['c.vendor_id', 'c.batch_key']))
              .as('total'),
          ])
          .where((eb) =>
            eb.or(
              items.map((b) =>
                eb.and([eb('v.slug', '=', b.vendorSlug), eb('c.batch_key', '=', batchKey(b.batchId))]),
              ),
            ),
          )
          .as('u'),
      )
      .selectAll()
      .where('rn', '<=', UPLOADS_SHOWN)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const r of rows) totals.set(`${r.slug}\n${r.batch_key}`, Number(r.total));
    for (const r of rows) {
      const outcome = JSON.parse(r.result) as VerificationOutcome;
      const key = `${r.slug}\n${r.batch_key}`;
      const list = out.get(key) ?? [];
      list.push({
        verificationId: r.id,
        account: r.name,
        uploadedAt: r.created_at,
        status: outcome.status,
        confidence: outcome.confidence,
        notes: outcome.notes,
        extracted: outcome.extracted,
        sha256: r.sha256,
        filePath: r.file_path,
      });
      out.set(key, list);
    }
    return out;
  }

  /** The operator decision log, newest first (storage/stores/operator-actions.ts). */
  actions(q: ActionQuery): Promise<OperatorAction[]> {
    return listActions(this.db, q);
  }

  events(q: EventQuery): Promise<StoredEvent[]> {
    return this.outbox.list(q);
  }
}

function toView(r: {
  vendor_slug: string;
  batch_id: string;
  peptide_slug: string;
  status: string;
  purity: number | null;
  lab_slug: string | null;
  test_method: string | null;
  tested_at: string | null;
  source: string | null;
  source_url: string | null;
  submitted_at: string | null;
}): BatchAdminView {
  return {
    vendorSlug: r.vendor_slug,
    batchId: r.batch_id,
    peptideSlug: r.peptide_slug,
    status: r.status as BatchAdminView['status'],
    purity: r.purity === null ? null : Number(r.purity),
    lab: r.lab_slug,
    testMethod: r.test_method,
    testedAt: r.tested_at,
    source: r.source,
    sourceUrl: r.source_url,
    submittedAt: r.submitted_at,
  };
}
