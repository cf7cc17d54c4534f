import type { Kysely } from 'kysely';
import type { BatchRecord, BatchStatus } from '../../core/batches/model.ts';
import type { BatchStore } from '../../core/ports.ts';
import type { Database } from '../schema.ts';

/** A batch joined with its vendor, peptide and lab, in the shape of BatchRecord (raw flags). */
export function selectBatchRecords(db: Kysely<Database>) {
  return db
    .selectFrom('batches as b')
    .innerJoin('vendors as v', 'v.id', 'b.vendor_id')
    .innerJoin('peptides as p', 'p.id', 'b.peptide_id')
    .leftJoin('labs as l', 'l.id', 'b.lab_id')
    .select([
      'b.batch_id as batchId',
      'b.status as status',
      'v.slug as vendorSlug',
      'v.name as vendorName',
      'v.verified as vendorVerified',
      'p.name as peptideName',
      'b.purity as purity',
      'l.name as labName',
      'b.test_method as testMethod',
      'b.tested_at as testedAt',
      'b.source as source',
      'b.source_url as sourceUrl',
      'b.submitted_at as submittedAt',
    ]);
}

type BatchRow = Omit<BatchRecord, 'status' | 'vendorVerified'> & { status: string; vendorVerified: number };

export const toBatchRecord = (r: BatchRow): BatchRecord => ({
  ...r,
  status: r.status as BatchStatus,
  vendorVerified: r.vendorVerified === 1,
});

export class KyselyBatchStore implements BatchStore {
  constructor(private readonly db: Kysely<Database>) {}

  async findByKey(key: string, vendorSlug?: string): Promise<BatchRecord[]> {
    let q = selectBatchRecords(this.db).where('b.batch_key', '=', key);
    if (vendorSlug !== undefined) q = q.where('v.slug', '=', vendorSlug);
    return (await q.execute()).map(toBatchRecord);
  }

  async vendorExists(slug: string): Promise<boolean> {
    return (
      (await this.db.selectFrom('vendors').select('id').where('slug', '=', slug).executeTakeFirst()) !==
      undefined
    );
  }
}
