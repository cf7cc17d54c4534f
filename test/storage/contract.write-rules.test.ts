import { Value } from '@sinclair/typebox/value';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeAccount } from '../../src/core/accounts/change-account.ts';
import { DAY_MS } from '../../src/core/clock.ts';
import { EVENT_DATA, type EventType, type StoredEvent } from '../../src/core/events/model.ts';
import type { ImportRecord } from '../../src/core/import/records.ts';
import { Operator } from '../../src/core/operator/operator.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { dumpTables, type FreshStore, importBatch, NOW_ISO, openFreshStore, T0 } from './support.ts';

const ago = (days: number) => new Date(T0 - days * DAY_MS).toISOString();
const later = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

const SEED: ImportRecord[] = [
  { type: 'account', name: 'owner-co', plan: 'pro' },
  { type: 'account', name: 'other-co', plan: 'enterprise' },
  { type: 'lab', slug: 'trusty', name: 'Trusty Lab', trusted: true },
  { type: 'peptide', slug: 'p1', name: 'Peptide One', category: 'c', molecularWeight: '100 g/mol' },
  { type: 'vendor', slug: 'acme', name: 'Acme', verified: true, verifiedAt: ago(400) },
  { type: 'vendor', slug: 'bolt', name: 'Bolt' },
  { type: 'claim', vendorSlug: 'acme', account: 'owner-co' },
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
  // A complete submission still pending: an approval record need not repeat its facts.
  {
    type: 'batch',
    vendorSlug: 'acme',
    batchId: 'A-2',
    peptideSlug: 'p1',
    purity: 98.4,
    lab: 'trusty',
    testMethod: 'HPLC-MS',
    testedAt: ago(3),
    status: 'pending',
    submittedAt: ago(2),
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
 * The write path's rules and events, decided in the core from facts the store reads inside the
 * transaction, over both dialects: imports and operator use cases alike.
 */
describe.each(DIALECTS)('storage contract: write rules and event payloads (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let op: Operator;
  const apply = (records: ImportRecord[], nowIso: string) =>
    store.imports.applyWithResult(importBatch(records), { nowIso, reason: 'test' });
  const events = async <K extends EventType = EventType>(type?: K) =>
    (await store.outbox.list({ limit: 1000 })).filter(
      (e): e is Extract<StoredEvent, { type: K }> => type === undefined || e.type === type,
    );
  const omit = { vendors: ['updated_at'] };

  beforeEach(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    await apply(SEED, NOW_ISO);
    op = new Operator({
      store: store.operator,
      writer: store.imports,
      clock: { now: () => T0 + 60_000 },
      historyLength: 30,
    });
  });
  afterEach(async () => fresh?.close());

  describe('accounts', () => {
    it('changing an unknown account is not_found and creates nothing', async () => {
      const snapshot = await dumpTables(store.kysely, omit);
      await expect(op.updateAccount('Nobody', { plan: 'enterprise' }, 'test')).rejects.toMatchObject({
        code: 'not_found',
        message: "Account 'Nobody' does not exist.",
      });
      expect(await store.accounts.findByName('Nobody')).toBeNull();
      expect(await dumpTables(store.kysely, omit)).toEqual(snapshot);
    });

    it('the write itself refuses an account that does not exist, whatever the caller read', async () => {
      // A caller whose read said the account exists (a stale read, a bug): the write checks again.
      const ghost = {
        id: 99,
        name: 'ghost',
        plan: 'pro' as const,
        rateLimitA: null,
        rateLimitB: null,
        createdAt: NOW_ISO,
      };
      const deps = {
        writer: store.imports,
        clock: { now: () => T0 },
        accounts: { findByName: async () => ghost },
      };
      await expect(changeAccount(deps, 'ghost', { plan: 'free' }, 'test')).rejects.toMatchObject({
        code: 'not_found',
      });
      expect(await store.accounts.findByName('ghost')).toBeNull();
    });

    it('a limits-only change does not undo a plan changed meanwhile: conflict, nothing written', async () => {
      // Read while custom (limits are for the custom plan only), then moved off it meanwhile.
      await op.updateAccount('owner-co', { plan: 'custom' }, 'test');
      const stale = { ...(await store.accounts.findByName('owner-co'))! };
      await op.updateAccount('owner-co', { plan: 'enterprise' }, 'test');
      const snapshot = await dumpTables(store.kysely, omit);
      const deps = {
        writer: store.imports,
        clock: { now: () => T0 },
        accounts: { findByName: async () => stale },
      };
      await expect(changeAccount(deps, 'owner-co', { rateLimitB: 10 }, 'test')).rejects.toMatchObject({
        code: 'conflict',
      });
      expect(await dumpTables(store.kysely, omit)).toEqual(snapshot);
    });

    it('changes plan and limits; fields not given are kept; an empty change is refused', async () => {
      const out = await op.updateAccount('owner-co', { plan: 'custom', rateLimitA: 500 }, 'test');
      expect(out.previous).toMatchObject({ plan: 'pro', rateLimitA: null });
      expect(out.account).toMatchObject({ plan: 'custom', rateLimitA: 500, rateLimitB: null });
      const limits = await op.updateAccount('owner-co', { rateLimitB: 9000 }, 'test');
      expect(limits.account).toMatchObject({ plan: 'custom', rateLimitA: 500, rateLimitB: 9000 });
      await expect(op.updateAccount('owner-co', {}, 'test')).rejects.toMatchObject({
        code: 'invalid_parameter',
      });
    });
  });

  describe('replies', () => {
    it('an owner check sees a claim and a review written by the same import', async () => {
      await apply(
        [
          { type: 'claim', vendorSlug: 'bolt', account: 'other-co' },
          {
            type: 'review',
            id: 'r9',
            vendorSlug: 'bolt',
            rating: 2,
            title: 'Slow',
            body: 'Took weeks.',
            author: 'Al',
            createdAt: ago(1),
          },
          { type: 'reply', reviewId: 'r9', body: 'Sorry', createdAt: later(1), account: 'other-co' },
        ],
        later(1),
      );
      expect((await events('review.reply')).map((e) => e.data)).toEqual([
        { vendor_slug: 'bolt', review_id: 'r9', body: 'Sorry', created_at: later(1) },
      ]);
    });

    it('a reply for an unclaimed vendor is a conflict; by another account invalid_parameter; nothing written', async () => {
      const snapshot = await dumpTables(store.kysely, omit);
      await expect(
        apply(
          [
            {
              type: 'review',
              id: 'r8',
              vendorSlug: 'bolt',
              rating: 2,
              title: 't',
              body: 'b',
              author: 'a',
              createdAt: ago(1),
            },
            { type: 'reply', reviewId: 'r8', body: 'Hi', createdAt: later(1), account: 'owner-co' },
          ],
          later(1),
        ),
      ).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('not claimed') });
      // The claim moves in the same write: the old owner may no longer reply.
      await expect(
        apply(
          [
            { type: 'claim', vendorSlug: 'acme', account: 'other-co' },
            { type: 'reply', reviewId: 'r1', body: 'Hi', createdAt: later(1), account: 'owner-co' },
          ],
          later(1),
        ),
      ).rejects.toMatchObject({
        code: 'invalid_parameter',
        message:
          "Account 'owner-co' cannot reply to review 'r1': a reply's account must be the account that owns vendor 'acme'.",
      });
      expect(await dumpTables(store.kysely, omit)).toEqual(snapshot);
    });
  });

  describe('events', () => {
    it('an approval carries the batch as the write leaves it: facts a record omits are the stored ones', async () => {
      // The import parser wants all four facts on an approval record; the store's write path (used
      // by seeding, too) keeps stored values for omitted fields, and the event follows the store.
      await apply(
        [{ type: 'batch', vendorSlug: 'acme', batchId: ' a-2', peptideSlug: 'p1', status: 'approved' }],
        later(1),
      );
      expect((await events('coa.approved')).map((e) => e.data)).toEqual([
        {
          vendor_slug: 'acme',
          batch_id: 'a-2',
          peptide_slug: 'p1',
          peptide_name: 'Peptide One',
          purity: 98.4,
          lab: 'trusty',
          lab_name: 'Trusty Lab',
          test_method: 'HPLC-MS',
          tested_at: ago(3),
        },
      ]);
    });

    it('a batch imported already decided is history, not a decision: no coa event', async () => {
      await apply(
        [
          { type: 'batch', vendorSlug: 'acme', batchId: 'NEW-1', peptideSlug: 'p1', status: 'rejected' },
          { type: 'batch', vendorSlug: 'acme', batchId: 'A-1', peptideSlug: 'p1', status: 'approved' },
        ],
        later(1),
      );
      expect(await events('coa.rejected')).toEqual([]);
      expect(await events('coa.approved')).toEqual([]);
    });

    it('every kind: the stored data validates against its schema and always names the vendor', async () => {
      await op.reviewBatch('acme', 'A-2', 'approve', {}, 'ann');
      await apply(
        [
          {
            type: 'batch',
            vendorSlug: 'bolt',
            batchId: 'B-1',
            peptideSlug: 'p1',
            status: 'pending',
            submittedAt: ago(1),
          },
        ],
        later(2),
      );
      await op.reviewBatch('bolt', 'B-1', 'reject', {}, 'ann');
      const { id } = await op.addReview(
        { vendorSlug: 'acme', rating: 5, title: 'Great', body: 'Fast.', author: 'Sam' },
        'ann',
      );
      await op.reply(id, { body: 'Thanks!', account: 'owner-co' }, 'ann');
      await op.setOverride('acme', 'score', 95, 'audit', 'ann');
      const all = await events();
      expect(new Set(all.map((e) => e.type))).toEqual(
        new Set([
          'score.changed',
          'vendor.tier_upgraded',
          'coa.approved',
          'coa.rejected',
          'review.new',
          'review.reply',
        ]),
      );
      for (const e of all) {
        expect([...Value.Errors(EVENT_DATA[e.type], e.data)], `${e.type} ${JSON.stringify(e.data)}`).toEqual(
          [],
        );
        expect(e.vendorSlug).toBe(e.data.vendor_slug);
      }
    });
  });
});
