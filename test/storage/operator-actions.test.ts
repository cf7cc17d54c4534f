import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/core/clock.ts';
import type { ImportRecord } from '../../src/core/import/records.ts';
import type { OperatorAction } from '../../src/core/operator/actions.ts';
import { Operator } from '../../src/core/operator/operator.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { type FreshStore, importBatch, NOW_ISO, openFreshStore, T0 } from './support.ts';

const ago = (days: number) => new Date(T0 - days * DAY_MS).toISOString();
/** The operator's clock: a minute after the seed. */
const WRITE_AT = T0 + 60_000;
const WRITE_ISO = new Date(WRITE_AT).toISOString();

const SEED: ImportRecord[] = [
  { type: 'account', name: 'owner-co', plan: 'pro' },
  { type: 'lab', slug: 'trusty', name: 'Trusty Lab', trusted: true },
  { type: 'peptide', slug: 'p1', name: 'Peptide One', category: 'c', molecularWeight: '100 g/mol' },
  { type: 'peptide', slug: 'p2', name: 'Peptide Two', category: 'c', molecularWeight: '200 g/mol' },
  { type: 'vendor', slug: 'acme', name: 'Acme', verified: true, verifiedAt: ago(400) },
  { type: 'vendor', slug: 'bolt', name: 'Bolt' },
  ...(['p1', 'p2'] as const).map(
    (peptideSlug): ImportRecord => ({
      type: 'price',
      vendorSlug: 'acme',
      peptideSlug,
      vialMg: 5,
      source: 'baseline',
      totalUsd: 50,
      inStock: true,
      updatedAt: ago(2),
    }),
  ),
  {
    type: 'batch',
    vendorSlug: 'acme',
    batchId: 'A-1',
    peptideSlug: 'p1',
    purity: 99,
    lab: 'trusty',
    testMethod: 'HPLC',
    testedAt: ago(10),
    status: 'approved',
  },
  // A complete submission of the peptide without a CoA: approving it raises coverage.
  {
    type: 'batch',
    vendorSlug: 'acme',
    batchId: 'A-2',
    peptideSlug: 'p2',
    purity: 98.4,
    lab: 'trusty',
    testMethod: 'HPLC-MS',
    testedAt: ago(3),
    status: 'pending',
    submittedAt: ago(2),
  },
  // A bare submission: rejecting it moves no score.
  {
    type: 'batch',
    vendorSlug: 'acme',
    batchId: 'A-3',
    peptideSlug: 'p1',
    status: 'pending',
    submittedAt: ago(1),
  },
  {
    type: 'batch',
    vendorSlug: 'bolt',
    batchId: 'B-1',
    peptideSlug: 'p1',
    status: 'pending',
    submittedAt: ago(1),
  },
  {
    type: 'review',
    id: 'r1',
    vendorSlug: 'acme',
    rating: 4,
    title: 'Good',
    body: 'Fine.',
    author: 'Jo',
    createdAt: ago(5),
  },
];

/**
 * The operator decision log on both databases: each decision of the operator use cases (a batch
 * approved or rejected, an override set or cleared, an account's plan changed) is one entry with
 * who, when, what and why, written by the transaction of its change. A refused write records
 * nothing; an entry that cannot be written undoes its change.
 */
describe.each(DIALECTS)('operator decision log (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let op: Operator;

  beforeEach(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    await store.imports.applyWithResult(importBatch(SEED), { nowIso: NOW_ISO, reason: 'seed' });
    op = new Operator({
      store: store.operator,
      writer: store.imports,
      clock: { now: () => WRITE_AT },
      historyLength: 30,
    });
  });
  afterEach(async () => fresh?.close());

  const all = () => op.actions({ limit: 200 });
  const rowCount = async () =>
    Number(
      (
        await store.kysely
          .selectFrom('operator_actions')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('a rejection that moves no score is recorded with who, when and why', async () => {
    const history = (await op.vendor('acme')).history.length;
    const out = await op.reviewBatch(
      'acme',
      'a-3',
      'reject',
      {},
      'ann@example.com',
      '  lab never issued it  ',
    );
    expect(out.scoreChanges).toEqual([]);
    expect((await op.vendor('acme')).history).toHaveLength(history);
    const [entry, ...rest] = await all();
    expect(rest).toEqual([]);
    expect(entry).toEqual<OperatorAction>({
      id: expect.any(Number),
      at: WRITE_ISO,
      actor: 'ann@example.com',
      action: 'batch.rejected',
      vendorSlug: 'acme',
      // The batch id as stored, whatever case the operator typed.
      subject: 'A-3',
      reason: 'lab never issued it',
      details: { peptide: 'p1' },
    });
  });

  it('an approval records the test facts it wrote and the score it moved', async () => {
    const out = await op.reviewBatch('acme', 'A-2', 'approve', { purity: 98.9 }, 'bob');
    const moved = out.scoreChanges.find((c) => c.vendorSlug === 'acme');
    expect(moved).toBeDefined();
    const [entry] = await all();
    expect(entry).toMatchObject({
      at: WRITE_ISO,
      actor: 'bob',
      action: 'batch.approved',
      vendorSlug: 'acme',
      subject: 'A-2',
      reason: null,
      details: {
        peptide: 'p2',
        purity: 98.9,
        lab: 'trusty',
        testMethod: 'HPLC-MS',
        testedAt: ago(3),
        score: { previous: moved!.previous, next: moved!.next },
      },
    });
  });

  it('overrides set, replaced and cleared: what each replaced or cleared, newest first', async () => {
    await op.setOverride('acme', 'coa', 80, 'audit found forged reports', 'ann');
    await op.setOverride('acme', 'coa', 60, 'second look', 'bob');
    await op.clearOverride('acme', 'coa', 'carol', 'reports re-verified');
    await op.setOverride('bolt', 'score', 40, 'pinned', 'ann');
    const acme = await op.actions({ vendorSlug: 'acme', limit: 10 });
    expect(acme.map((a) => [a.action, a.actor, a.reason])).toEqual([
      ['override.cleared', 'carol', 'reports re-verified'],
      ['override.set', 'bob', 'second look'],
      ['override.set', 'ann', 'audit found forged reports'],
    ]);
    expect(acme.map((a) => a.subject)).toEqual(['coa', 'coa', 'coa']);
    const [cleared, replaced, first] = acme;
    expect(first!.details).toMatchObject({ value: 80, replaced: null });
    expect(replaced!.details).toMatchObject({
      value: 60,
      replaced: { value: 80, reason: 'audit found forged reports', setBy: 'ann', setAt: WRITE_ISO },
    });
    expect(cleared!.details).toMatchObject({
      value: 60,
      cleared: { value: 60, reason: 'second look', setBy: 'bob', setAt: WRITE_ISO },
    });
    // Ids increase in commit order: newest first is highest first.
    expect(acme.map((a) => a.id)).toEqual([...acme.map((a) => a.id)].sort((x, y) => y - x));
    // The override is gone from the overrides; the log still has who cleared it and why.
    expect(await op.listOverrides('acme')).toEqual([]);
    expect((await all()).map((a) => a.vendorSlug)).toEqual(['bolt', 'acme', 'acme', 'acme']);
  });

  it('a clear without a reason works as before and records none', async () => {
    await op.setOverride('acme', 'purity', 50, 'why not', 'ann');
    await op.clearOverride('acme', 'purity', 'ann');
    const [entry] = await all();
    expect(entry).toMatchObject({ action: 'override.cleared', reason: null, actor: 'ann' });
  });

  it("an account's plan change: before and the change asked", async () => {
    await op.updateAccount('owner-co', { plan: 'custom', rateLimitB: 900 }, 'ops@example.com');
    await op.updateAccount('owner-co', { rateLimitA: 50 }, 'ops@example.com');
    const changes = await op.actions({ subject: 'owner-co', kinds: ['account.plan_changed'], limit: 10 });
    expect(changes.map((c) => [c.vendorSlug, c.details])).toEqual([
      [
        null,
        {
          from: { plan: 'custom', rateLimitA: null, rateLimitB: 900 },
          to: { plan: 'custom', rateLimitA: 50 },
        },
      ],
      [
        null,
        {
          from: { plan: 'pro', rateLimitA: null, rateLimitB: null },
          to: { plan: 'custom', rateLimitB: 900 },
        },
      ],
    ]);
  });

  it('reads narrow by vendor, subject and kinds, and page before an id', async () => {
    await op.reviewBatch('acme', 'A-3', 'reject', {}, 'ann', 'no lab');
    await op.reviewBatch('bolt', 'B-1', 'reject', {}, 'ann', 'no lab either');
    await op.setOverride('acme', 'coa', 10, 'r', 'ann');
    await op.reviewBatch('acme', 'A-2', 'approve', {}, 'bob');
    const decisions = await op.actions({ kinds: ['batch.approved', 'batch.rejected'], limit: 10 });
    expect(decisions.map((a) => `${a.vendorSlug}/${a.subject}`)).toEqual([
      'acme/A-2',
      'bolt/B-1',
      'acme/A-3',
    ]);
    expect(
      (await op.actions({ vendorSlug: 'acme', subject: 'A-3', limit: 10 })).map((a) => a.reason),
    ).toEqual(['no lab']);
    const firstPage = await op.actions({ vendorSlug: 'acme', limit: 2 });
    expect(firstPage.map((a) => a.action)).toEqual(['batch.approved', 'override.set']);
    const next = await op.actions({ vendorSlug: 'acme', limit: 2, before: firstPage.at(-1)!.id });
    expect(next.map((a) => a.action)).toEqual(['batch.rejected']);
    expect(await op.actions({ kinds: [], limit: 10 })).toEqual([]);
    await expect(op.actions({ limit: 201 })).rejects.toMatchObject({
      code: 'invalid_parameter',
      details: { parameter: 'limit' },
    });
    // Another process (a second store on the same database) reads the same log.
    const second = await fresh.openSecond();
    expect(await second.operator.actions({ limit: 10 })).toEqual(await all());
  });

  it('a refused write records nothing', async () => {
    const refusals: [string, () => Promise<unknown>, Record<string, unknown>][] = [
      [
        'a reason over 500 characters',
        () => op.reviewBatch('acme', 'A-3', 'reject', {}, 'ann', 'r'.repeat(501)),
        { code: 'invalid_parameter', details: { parameter: 'reason' } },
      ],
      [
        'a clear reason over 500 characters',
        () => op.clearOverride('acme', 'coa', 'ann', 'r'.repeat(501)),
        { code: 'invalid_parameter', details: { parameter: 'reason' } },
      ],
      [
        'an actor over 254 characters',
        () => op.reviewBatch('acme', 'A-3', 'reject', {}, 'x'.repeat(255)),
        {
          code: 'invalid_parameter',
          details: { parameter: 'actor' },
        },
      ],
      [
        'a decided batch',
        () => op.reviewBatch('acme', 'A-1', 'reject', {}, 'ann', 'x'),
        { code: 'conflict' },
      ],
      // Refused by the import checks inside writeRecords: no test facts for an approval.
      [
        'an approval without test facts',
        () => op.reviewBatch('acme', 'A-3', 'approve', {}, 'ann'),
        {
          code: 'invalid_parameter',
        },
      ],
      [
        'an unknown batch',
        () => op.reviewBatch('acme', 'NOPE', 'reject', {}, 'ann', 'x'),
        { code: 'not_found' },
      ],
      ['a missing override', () => op.clearOverride('acme', 'coa', 'ann', 'x'), { code: 'not_found' }],
      ['an unknown account', () => op.updateAccount('ghost', { plan: 'pro' }, 'ann'), { code: 'not_found' }],
      [
        'a limit off the plan',
        () => op.updateAccount('owner-co', { rateLimitA: 5 }, 'ann'),
        {
          code: 'invalid_parameter',
        },
      ],
    ];
    for (const [what, write, error] of refusals) {
      await expect(write(), what).rejects.toMatchObject(error);
    }
    expect(await rowCount()).toBe(0);
    // Two operators deciding one batch at once: the loser is refused under the write lock, and
    // only the winner's decision is in the log.
    const settled = await Promise.allSettled([
      op.reviewBatch('bolt', 'B-1', 'reject', {}, 'ann', 'first'),
      op.reviewBatch('bolt', 'B-1', 'reject', {}, 'bob', 'second'),
    ]);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    expect(await rowCount()).toBe(1);
  });

  it('the entry commits with its change: one that cannot be written undoes the change', async () => {
    const before = await op.vendor('acme');
    // An entry the table refuses (no actor): the write fails as a whole.
    const broken = {
      actor: null,
      action: 'batch.rejected',
      vendorSlug: 'acme',
      subject: 'A-3',
      reason: null,
      details: null,
    };
    await expect(
      store.imports.applyWithResult(
        importBatch([
          { type: 'batch', vendorSlug: 'acme', batchId: 'A-3', peptideSlug: 'p1', status: 'rejected' },
          { type: 'override', vendorSlug: 'acme', field: 'score', value: 5, reason: 'x', setBy: 'ann' },
        ]),
        { nowIso: WRITE_ISO, reason: 'test', log: () => [broken as never] },
      ),
    ).rejects.toThrow(/actor/);
    expect(await rowCount()).toBe(0);
    expect((await op.pendingBatches(10, 0)).items.map((b) => b.batchId)).toContain('A-3');
    expect(await op.vendor('acme')).toEqual(before);
    expect((await store.outbox.list({ limit: 100 })).map((e) => e.type)).not.toContain('coa.rejected');
  });
});
