import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/core/clock.ts';
import type { EventType, StoredEvent } from '../../src/core/events/model.ts';
import type { BatchImportRecord, ImportBatch, ImportRecord } from '../../src/core/import/records.ts';
import { Operator } from '../../src/core/operator/operator.ts';
import { compositeOf } from '../../src/core/scoring/composite.ts';
import { NO_EVIDENCE, type VendorEvidenceSums } from '../../src/core/scoring/evidence.ts';
import { DEFAULT_METHOD } from '../../src/core/scoring/method.ts';
import { computePillars } from '../../src/core/scoring/pillars.ts';
import type { Pillars } from '../../src/core/vendors/model.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import {
  countRows,
  dumpTables,
  type FreshStore,
  importBatch,
  NOW_ISO,
  openFreshStore,
  T0,
} from './support.ts';

const ago = (days: number) => new Date(T0 - days * DAY_MS).toISOString();
const later = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/**
 * One vendor with evidence of every kind, and the sums the method should see (written out by
 * hand from the records, so the SQL aggregation is checked against arithmetic, not itself).
 */
const EVIDENCE: ImportRecord[] = [
  { type: 'account', name: 'owner-co', plan: 'pro' },
  { type: 'lab', slug: 'trusty', name: 'Trusty Lab', trusted: true },
  { type: 'lab', slug: 'shady', name: 'Shady Lab', trusted: false },
  { type: 'peptide', slug: 'p1', name: 'P1', category: 'c', molecularWeight: '100 g/mol' },
  { type: 'peptide', slug: 'p2', name: 'P2', category: 'c', molecularWeight: '100 g/mol' },
  { type: 'peptide', slug: 'p3', name: 'P3', category: 'c', molecularWeight: '100 g/mol' },
  { type: 'peptide', slug: 'p4', name: 'P4', category: 'c', molecularWeight: '100 g/mol' },
  {
    type: 'vendor',
    slug: 'acme',
    name: 'Acme',
    location: 'Canada',
    description: 'Peptides.',
    verified: true,
    verifiedAt: ago(400),
  },
  { type: 'claim', vendorSlug: 'acme', account: 'owner-co' },
  // Catalog: p1, p2, p3 listed; p4 only tested → 4 peptides.
  ...['p1', 'p2', 'p3'].map(
    (p): ImportRecord => ({
      type: 'price',
      vendorSlug: 'acme',
      peptideSlug: p,
      vialMg: 5,
      source: 'baseline',
      totalUsd: 50,
      inStock: true,
      updatedAt: ago(1),
    }),
  ),
  batch('A-1', 'p1', 99, 'trusty', ago(10), 'https://coa.example/a1'),
  batch('A-2', 'p2', 98, 'shady', ago(100)),
  // Stale (151 days): counts for everything but coverage.
  batch('A-3', 'p4', 97, 'trusty', ago(151), 'https://coa.example/a3'),
  // Outside the purity window (400 days).
  batch('A-4', 'p1', 90, 'trusty', ago(400)),
  {
    type: 'batch',
    vendorSlug: 'acme',
    batchId: 'A-5',
    peptideSlug: 'p3',
    status: 'pending',
    submittedAt: ago(2),
  },
  { ...batch('A-6', 'p3', 50, 'shady', ago(5)), status: 'rejected' },
  review('r1', 5, ago(10)),
  review('r2', 4, ago(200)),
  review('r3', 2, ago(500)),
];

const EXPECTED_SUMS: VendorEvidenceSums = {
  ...NO_EVIDENCE,
  catalogSize: 4,
  currentPeptides: 2, // p1 (10 d), p2 (100 d); p4 is stale at 151 d
  approvedBatches: 4,
  newestTestedAt: ago(10),
  oldestTestedAt: ago(400),
  withSourceUrl: 2,
  withTrustedLab: 3,
  // Window 365 d: A-1 (99, trusted, w 1), A-2 (98, untrusted, w .25), A-3 (97, trusted, w 1).
  purityWeight: 2.25,
  purityWeightedSum: 99 + 0.25 * 98 + 97,
  purityWeightedSquares: 99 * 99 + 0.25 * 98 * 98 + 97 * 97,
  reviews: 3,
  reviewWeight: 1 + 0.5 + 0.25,
  reviewWeightedRatings: 5 + 0.5 * 4 + 0.25 * 2,
  oldestReviewAt: ago(500),
  hasLocation: true,
  hasDescription: true,
  hasWebsite: false,
  claimed: true,
  verifiedAt: ago(400),
};

function batch(
  batchId: string,
  peptideSlug: string,
  purity: number,
  lab: string,
  testedAt: string,
  sourceUrl?: string,
): BatchImportRecord {
  return {
    type: 'batch',
    vendorSlug: 'acme',
    batchId,
    peptideSlug,
    purity,
    lab,
    testMethod: 'HPLC',
    testedAt,
    status: 'approved',
    ...(sourceUrl ? { sourceUrl } : {}),
  };
}

function review(id: string, rating: number, createdAt: string): ImportRecord {
  return { type: 'review', id, vendorSlug: 'acme', rating, title: 't', body: 'b', author: 'a', createdAt };
}

describe.each(DIALECTS)('storage contract: scores from evidence (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  const apply = (records: ImportRecord[], nowIso: string, reason = 'test') =>
    store.imports.applyWithResult(importBatch(records), { nowIso, reason });
  const vendorRow = () =>
    store.kysely.selectFrom('vendors').selectAll().where('slug', '=', 'acme').executeTakeFirstOrThrow();
  const events = async <K extends EventType = EventType>(type?: K) =>
    (await store.outbox.list({ limit: 1000 })).filter(
      (e): e is Extract<StoredEvent, { type: K }> => type === undefined || e.type === type,
    );
  const history = () =>
    store.kysely
      .selectFrom('score_history')
      .select(['score', 'reason', 'recorded_at'])
      .orderBy('id')
      .execute();

  beforeEach(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    await apply(EVIDENCE, NOW_ISO, 'seed');
  });
  afterEach(async () => fresh?.close());

  it('computes the pillars from the evidence exactly as the method does from hand-counted sums', async () => {
    const expected = computePillars(EXPECTED_SUMS, T0);
    const v = await vendorRow();
    const stored = {
      coa: v.coa,
      purity: v.purity,
      sentiment: v.sentiment,
      transparency: v.transparency,
      experience: v.experience,
    };
    expect(stored).toEqual(expected);
    expect(Number(v.score)).toBe(compositeOf(expected as Pillars, DEFAULT_METHOD.weights));
    // Mean purity shown by Variant A counts every approved batch: (99 + 98 + 97 + 90) / 4 = 96.
    expect(Number(v.avg_purity)).toBe(96);
    const listed = (await store.catalog.listVendors()).find((x) => x.slug === 'acme')!;
    expect(listed.pending).toBe(false);
    expect(listed.pillars).toEqual(expected);
  });

  it('a vendor with no approved batch is unscored and pending, whatever its reviews', async () => {
    await apply(
      [
        { type: 'vendor', slug: 'newbie', name: 'Newbie' },
        {
          type: 'review',
          id: 'n1',
          vendorSlug: 'newbie',
          rating: 5,
          title: '',
          body: '',
          author: 'a',
          createdAt: ago(1),
        },
      ],
      later(1),
    );
    const v = (await store.catalog.listVendors()).find((x) => x.slug === 'newbie')!;
    expect(v).toMatchObject({ score: null, pillars: null, pending: true });
  });

  it('approving a pending batch moves the score, appends history and writes score.changed and coa.approved together', async () => {
    const before = await vendorRow();
    const beforeHistory = await history();
    const r = await apply(
      [
        {
          type: 'batch',
          vendorSlug: 'acme',
          batchId: 'A-5',
          peptideSlug: 'p3',
          purity: 99.5,
          lab: 'trusty',
          testMethod: 'HPLC',
          testedAt: ago(1),
          sourceUrl: 'https://coa.example/a5',
          status: 'approved',
          submittedAt: ago(2),
        },
      ],
      later(5),
      'batch approved',
    );
    const after = await vendorRow();
    expect(after.coa).toBeGreaterThan(before.coa!); // p3 is now covered: 3 of 4
    expect(after.score).not.toBe(before.score);
    expect(r.recompute.changes).toEqual([
      expect.objectContaining({ slug: 'acme', previous: before.score, next: after.score }),
    ]);
    const h = await history();
    expect(h.length).toBe(beforeHistory.length + 1);
    expect(h.at(-1)).toEqual({ score: after.score, reason: 'batch approved', recorded_at: later(5) });
    const [changed] = await events('score.changed');
    expect(changed!.data).toMatchObject({
      vendor_slug: 'acme',
      previous_score: before.score,
      new_score: after.score,
      delta: Number(after.score) - Number(before.score),
    });
    const pillarChanges = changed!.data.pillar_changes as Record<string, number>;
    expect(pillarChanges.coa).toBe(Number(after.coa) - Number(before.coa));
    for (const d of Object.values(pillarChanges)) expect(d).not.toBe(0);
    expect(await events('coa.approved')).toEqual([
      expect.objectContaining({
        vendorSlug: 'acme',
        data: expect.objectContaining({ batch_id: 'A-5', purity: 99.5 }),
      }),
    ]);
  });

  it('rejecting a pending batch writes coa.rejected and moves no score', async () => {
    const before = await vendorRow();
    await apply(
      [{ type: 'batch', vendorSlug: 'acme', batchId: 'a-5 ', peptideSlug: 'p3', status: 'rejected' }],
      later(5),
    );
    expect((await vendorRow()).score).toBe(before.score);
    expect((await events('coa.rejected')).map((e) => e.data.batch_id)).toEqual(['a-5']);
    expect(await events('score.changed')).toEqual([]);
  });

  it('a new review writes review.new and moves sentiment; re-importing it writes nothing more', async () => {
    const before = await vendorRow();
    const rec = review('r4', 1, ago(1));
    await apply([rec], later(1));
    const after = await vendorRow();
    expect(after.sentiment).toBeLessThan(before.sentiment!);
    expect((await events('review.new')).map((e) => e.data.review_id)).toEqual(['r1', 'r2', 'r3', 'r4']);
    const n = (await events()).length;
    await apply([rec], later(2));
    expect((await events()).length).toBe(n);
  });

  it('a reply writes review.reply once, with the replying account', async () => {
    await apply(
      [{ type: 'reply', reviewId: 'r3', body: 'Sorry!', createdAt: later(1), account: 'owner-co' }],
      later(1),
    );
    await apply(
      [{ type: 'reply', reviewId: 'r3', body: 'Sorry, edited', createdAt: later(1), account: 'owner-co' }],
      later(2),
    );
    expect((await events('review.reply')).map((e) => [e.vendorSlug, e.data.review_id])).toEqual([
      ['acme', 'r3'],
    ]);
    const row = await store.kysely.selectFrom('replies').selectAll().executeTakeFirstOrThrow();
    expect(row.body).toBe('Sorry, edited');
    expect(row.account_id).not.toBeNull();
  });

  it('an imported reply that names an account other than the owner is refused, and nothing is written', async () => {
    await apply([{ type: 'account', name: 'stranger', plan: 'pro' }], later(1));
    const omit = { vendors: ['updated_at'] };
    const snapshot = await dumpTables(store.kysely, omit);
    await expect(
      apply(
        [{ type: 'reply', reviewId: 'r2', body: 'Not mine', createdAt: later(2), account: 'stranger' }],
        later(2),
      ),
    ).rejects.toMatchObject({
      code: 'invalid_parameter',
      message: expect.stringContaining('must be the account that owns'),
    });
    expect(await dumpTables(store.kysely, omit)).toEqual(snapshot);
  });

  it('an override pins a pillar after computation, and clearing it restores the computed value', async () => {
    const before = await vendorRow();
    await apply(
      [
        {
          type: 'override',
          vendorSlug: 'acme',
          field: 'sentiment',
          value: 100,
          reason: 'audit',
          setBy: 'alice',
        },
      ],
      later(1),
    );
    const pinned = await vendorRow();
    expect(pinned.sentiment).toBe(before.sentiment); // the computed value is kept
    expect(pinned.eff_sentiment).toBe(100);
    expect(pinned.score).toBeGreaterThan(before.score!);
    const [o] = await store.operator.listOverrides('acme');
    expect(o).toEqual({
      vendorSlug: 'acme',
      field: 'sentiment',
      value: 100,
      reason: 'audit',
      setBy: 'alice',
      setAt: later(1),
    });
    await apply([{ type: 'override', vendorSlug: 'acme', field: 'sentiment', value: null }], later(2));
    const cleared = await vendorRow();
    expect(cleared.eff_sentiment).toBe(before.sentiment);
    expect(cleared.score).toBe(before.score);
    expect((await events('score.changed')).map((e) => e.data.delta)).toEqual([
      Number(pinned.score) - Number(before.score),
      Number(before.score) - Number(pinned.score),
    ]);
  });

  it('an override keeps who set it and when: the same setting again changes nothing, a new one is new', async () => {
    const set = (value: number, reason: string, setBy?: string) =>
      ({
        type: 'override',
        vendorSlug: 'acme',
        field: 'coa',
        value,
        reason,
        ...(setBy ? { setBy } : {}),
      }) as const;
    await apply([set(10, 'first', 'ann')], later(1));
    await apply([set(10, 'first')], later(2));
    expect(await store.operator.listOverrides('acme')).toEqual([
      expect.objectContaining({ value: 10, reason: 'first', setBy: 'ann', setAt: later(1) }),
    ]);
    await apply([set(20, 'second', 'bob')], later(3));
    expect(await store.operator.listOverrides('acme')).toEqual([
      expect.objectContaining({ value: 20, reason: 'second', setBy: 'bob', setAt: later(3) }),
    ]);
  });

  it('a move up a tier band writes vendor.tier_upgraded; a move down does not', async () => {
    await apply([{ type: 'override', vendorSlug: 'acme', field: 'score', value: 69, reason: 'x' }], later(1));
    await apply([{ type: 'override', vendorSlug: 'acme', field: 'score', value: 91, reason: 'x' }], later(2));
    await apply([{ type: 'override', vendorSlug: 'acme', field: 'score', value: 85, reason: 'x' }], later(3));
    expect((await events('vendor.tier_upgraded')).map((e) => e.data)).toEqual([
      { vendor_slug: 'acme', previous_tier: 'bronze', new_tier: 'platinum', score: 91 },
    ]);
  });

  it('untrusting a lab recomputes every vendor that used it', async () => {
    const before = await vendorRow();
    await apply([{ type: 'lab', slug: 'trusty', name: 'Trusty Lab', trusted: false }], later(1));
    const after = await vendorRow();
    expect(after.transparency).toBeLessThan(before.transparency!);
  });

  it('a live listing of a new peptide grows the catalog, so coverage (coa) falls', async () => {
    const before = await vendorRow();
    await apply(
      [
        { type: 'peptide', slug: 'p5', name: 'P5', category: 'c', molecularWeight: '1 g/mol' },
        {
          type: 'price',
          vendorSlug: 'acme',
          peptideSlug: 'p5',
          vialMg: 10,
          source: 'live',
          totalUsd: 1,
          inStock: true,
          updatedAt: later(1),
        },
      ],
      later(1),
    );
    expect((await vendorRow()).coa).toBeLessThan(before.coa!);
  });

  it('recomputing everything is idempotent, and time passing ages the evidence', async () => {
    const same = await store.imports.recomputeAll({ nowIso: NOW_ISO, reason: 'recompute' });
    expect(same).toMatchObject({ vendors: 1, updated: 0, changes: [] });
    const before = await vendorRow();
    const aged = await store.imports.recomputeAll({
      nowIso: new Date(T0 + 200 * DAY_MS).toISOString(),
      reason: 'recompute',
    });
    expect(aged.updated).toBe(1);
    const after = await vendorRow();
    expect(after.coa).toBeLessThan(before.coa!);
    expect((await history()).at(-1)?.reason).toBe('recompute');
  });

  it('a write that fails after the recompute rolls back the scores, the history and the events with it', async () => {
    const omit = { vendors: ['updated_at'] };
    const snapshot = await dumpTables(store.kysely, omit);
    const version = (await store.state.read()).dataVersion;
    let recomputed = 0;
    await expect(
      store.imports.applyChunks(
        [
          importBatch([
            review('r9', 1, ago(1)),
            { type: 'override', vendorSlug: 'acme', field: 'score', value: 5, reason: 'x' },
            { ...batch('A-5', 'p3', 99.5, 'trusty', ago(1)), submittedAt: ago(2) },
          ]),
        ],
        {
          nowIso: later(9),
          reason: 'fail',
          onRecompute: (r) => {
            recomputed = r.changes.length;
            throw new Error('failure after the recompute and its events were written');
          },
        },
      ),
    ).rejects.toThrow('after the recompute');
    expect(recomputed).toBe(1); // the score did move inside the transaction…
    expect(await dumpTables(store.kysely, omit)).toEqual(snapshot); // …and nothing of it stayed
    expect((await store.state.read()).dataVersion).toBe(version);
  });

  it('a review moved to another vendor recomputes the vendor it left', async () => {
    await apply([{ type: 'vendor', slug: 'other', name: 'Other' }], later(1));
    const before = await vendorRow();
    await apply(
      [{ ...(review('r3', 2, ago(500)) as Extract<ImportRecord, { type: 'review' }>), vendorSlug: 'other' }],
      later(2),
    );
    const after = await vendorRow();
    expect(after.sentiment).not.toBe(before.sentiment);
    const fresh2 = await store.imports.recomputeAll({ nowIso: later(2), reason: 'check' });
    expect(fresh2.updated).toBe(0);
  });

  it('concurrent writes to one vendor serialise: the stored scores are what a full recompute gives, and events chain', async () => {
    const approve = { ...batch('A-5', 'p3', 99.5, 'trusty', ago(1)), submittedAt: ago(2) };
    await Promise.all([apply([review('r5', 1, ago(1))], later(1)), apply([approve], later(1))]);
    const check = await store.imports.recomputeAll({ nowIso: later(1), reason: 'check' });
    expect(check.updated).toBe(0);
    const changes = await events('score.changed');
    for (let i = 1; i < changes.length; i++) {
      expect(changes[i]!.data.previous_score).toBe(changes[i - 1]!.data.new_score);
    }
    expect(changes.map((e) => e.seq)).toEqual([...changes.map((e) => e.seq)].sort((a, b) => a - b));
    expect(changes.at(-1)?.data.new_score).toBe((await vendorRow()).score);
  });

  it("an operator's preconditions hold under concurrency: one reply per review, one decision per batch", async () => {
    const op = new Operator({
      store: store.operator,
      writer: store.imports,
      clock: { now: () => T0 + 60_000 },
      historyLength: 30,
    });
    const replies = await Promise.allSettled([
      op.reply('r1', { body: 'first', account: 'owner-co' }, 'a'),
      op.reply('r1', { body: 'second', account: 'owner-co' }, 'b'),
    ]);
    expect(replies.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(replies.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'conflict' } });
    const stored = await store.kysely
      .selectFrom('replies')
      .select('body')
      .where('review_id', '=', 'r1')
      .execute();
    const [event] = await events('review.reply');
    expect(stored).toHaveLength(1);
    expect(event!.data.body).toBe(stored[0]!.body);

    const completion = { purity: 99, lab: 'trusty', testMethod: 'HPLC', testedAt: ago(1) };
    const decisions = await Promise.allSettled([
      op.reviewBatch('acme', 'A-5', 'approve', completion, 'a'),
      op.reviewBatch('acme', 'A-5', 'reject', {}, 'b'),
    ]);
    expect(decisions.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await events('coa.approved')).length + (await events('coa.rejected')).length).toBe(1);
  });

  it('a failed write leaves scores, history and the outbox exactly as they were', async () => {
    const omit = { vendors: ['updated_at'] };
    const snapshot = await dumpTables(store.kysely, omit);
    const failing = function* (): Generator<ImportBatch> {
      yield importBatch([
        review('r9', 1, ago(1)),
        { type: 'override', vendorSlug: 'acme', field: 'score', value: 5, reason: 'x' },
      ]);
      yield importBatch([
        // Bypasses validation: no such vendor, so the row cannot be written and the transaction fails.
        {
          type: 'review',
          id: 'r10',
          vendorSlug: 'ghost',
          rating: 1,
          title: '',
          body: '',
          author: 'a',
          createdAt: ago(1),
        },
      ]);
    };
    await expect(
      store.imports.applyChunks(failing(), { nowIso: later(9), reason: 'fail' }),
    ).rejects.toThrow();
    expect(await dumpTables(store.kysely, omit)).toEqual(snapshot);
    expect((await countRows(store.kysely)).outbox).toBe(snapshot.outbox.length);
  });
});
