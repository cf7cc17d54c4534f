import type { Transaction } from 'kysely';
import type { Plan } from '../../core/accounts/model.ts';
import { batchKey } from '../../core/import/records.ts';
import { batchFactKey, type FactKeys, type WriteFacts } from '../../core/import/write-facts.ts';
import type { Database } from '../schema.ts';
import { chunked } from './upsert.ts';

const SLICE = 5000;

/**
 * Reads the facts the core's write rules and event builders ask for (core/import/write-facts.ts),
 * inside the caller's transaction. Only what was asked: an empty key list costs no query.
 */
export async function loadWriteFacts(trx: Transaction<Database>, keys: FactKeys): Promise<WriteFacts> {
  const facts: WriteFacts = {
    reviews: new Map(),
    replied: new Set(),
    batches: new Map(),
    peptideNames: new Map(),
    labNames: new Map(),
    vendorOwners: new Map(),
    accounts: new Map(),
  };
  for (const part of chunked(keys.reviews, SLICE)) {
    for (const r of await trx
      .selectFrom('reviews as r')
      .innerJoin('vendors as v', 'v.id', 'r.vendor_id')
      .leftJoin('accounts as a', 'a.id', 'v.owner_account_id')
      .select(['r.id', 'v.slug', 'a.name as owner'])
      .where('r.id', 'in', part)
      .execute()) {
      facts.reviews.set(r.id, { vendorSlug: r.slug, owner: r.owner });
    }
  }
  for (const part of chunked(keys.replied, SLICE)) {
    for (const r of await trx
      .selectFrom('replies')
      .select('review_id')
      .where('review_id', 'in', part)
      .execute()) {
      facts.replied.add(r.review_id);
    }
  }
  const wanted = new Set(keys.batches.map((b) => batchFactKey(b.vendorSlug, b.batchId)));
  for (const part of chunked([...new Set(keys.batches.map((b) => batchKey(b.batchId)))], SLICE)) {
    for (const r of await trx
      .selectFrom('batches as b')
      .innerJoin('vendors as v', 'v.id', 'b.vendor_id')
      .leftJoin('labs as l', 'l.id', 'b.lab_id')
      .select([
        'v.slug',
        'b.batch_key',
        'b.status',
        'b.purity',
        'l.slug as lab',
        'l.name as lab_name',
        'b.test_method',
        'b.tested_at',
      ])
      .where('b.batch_key', 'in', part)
      .execute()) {
      const key = batchFactKey(r.slug, r.batch_key);
      if (!wanted.has(key)) continue;
      facts.batches.set(key, {
        status: r.status as 'approved' | 'pending' | 'rejected',
        purity: r.purity === null ? null : Number(r.purity),
        lab: r.lab,
        testMethod: r.test_method,
        testedAt: r.tested_at,
      });
      // The stored lab may be the one the batch keeps: its name is a fact too.
      if (r.lab !== null && r.lab_name !== null) facts.labNames.set(r.lab, r.lab_name);
    }
  }
  for (const part of chunked(keys.peptides, SLICE)) {
    for (const r of await trx
      .selectFrom('peptides')
      .select(['slug', 'name'])
      .where('slug', 'in', part)
      .execute()) {
      facts.peptideNames.set(r.slug, r.name);
    }
  }
  for (const part of chunked(keys.labs, SLICE)) {
    for (const r of await trx
      .selectFrom('labs')
      .select(['slug', 'name'])
      .where('slug', 'in', part)
      .execute()) {
      facts.labNames.set(r.slug, r.name);
    }
  }
  for (const part of chunked(keys.vendors, SLICE)) {
    for (const r of await trx
      .selectFrom('vendors as v')
      .leftJoin('accounts as a', 'a.id', 'v.owner_account_id')
      .select(['v.slug', 'a.name as owner'])
      .where('v.slug', 'in', part)
      .execute()) {
      facts.vendorOwners.set(r.slug, r.owner);
    }
  }
  for (const part of chunked(keys.accounts, SLICE)) {
    for (const r of await trx
      .selectFrom('accounts')
      .select(['name', 'plan'])
      .where('name', 'in', part)
      .execute()) {
      facts.accounts.set(r.name, r.plan as Plan);
    }
  }
  return facts;
}
