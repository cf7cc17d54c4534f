import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { evidenceEvents } from '../../../src/core/events/evidence-events.ts';
import { EVENT_DATA } from '../../../src/core/events/model.ts';
import type { ImportRecord } from '../../../src/core/import/records.ts';
import {
  batchFactKey,
  chunkFactKeys,
  type StoredBatchFacts,
  type WriteFacts,
} from '../../../src/core/import/write-facts.ts';
import { importBatch } from '../../storage/support.ts';

const facts = (over: Partial<WriteFacts> = {}): WriteFacts => ({
  reviews: new Map(),
  replied: new Set(),
  batches: new Map(),
  peptideNames: new Map([['bpc-157', 'BPC-157']]),
  labNames: new Map([
    ['janoshik', 'Janoshik Analytical'],
    ['other-lab', 'Other Lab'],
  ]),
  vendorOwners: new Map(),
  accounts: new Map(),
  ...over,
});

const PENDING: StoredBatchFacts = {
  status: 'pending',
  purity: 98.5,
  lab: 'janoshik',
  testMethod: 'HPLC',
  testedAt: '2026-05-01T00:00:00.000Z',
};

const batch = (over: Partial<Extract<ImportRecord, { type: 'batch' }>>): ImportRecord => ({
  type: 'batch',
  vendorSlug: 'apex',
  batchId: 'PX-1',
  peptideSlug: 'bpc-157',
  status: 'approved',
  ...over,
});

describe('evidenceEvents', () => {
  it('an approval: the batch as the write leaves it (record fields over stored ones)', () => {
    const f = facts({ batches: new Map([[batchFactKey('apex', 'px-1'), PENDING]]) });
    const events = evidenceEvents(importBatch([batch({ batchId: ' PX-1 ', lab: 'other-lab' })]), f);
    expect(events).toEqual([
      {
        type: 'coa.approved',
        data: {
          vendor_slug: 'apex',
          batch_id: 'PX-1',
          peptide_slug: 'bpc-157',
          peptide_name: 'BPC-157',
          purity: 98.5,
          lab: 'other-lab',
          lab_name: 'Other Lab',
          test_method: 'HPLC',
          tested_at: '2026-05-01T00:00:00.000Z',
        },
      },
    ]);
    // An approved batch has its test facts (the import rules refuse one without): none is null.
    const bare = facts({ batches: new Map([[batchFactKey('apex', 'px-1'), { ...PENDING, purity: null }]]) });
    expect(() => evidenceEvents(importBatch([batch({})]), bare)).toThrow(/has no purity/);
    expect(() => evidenceEvents(importBatch([batch({ lab: null })]), f)).toThrow(/has no lab/);
  });

  it('a rejection names the batch and its peptide; a batch that leaves pending or reverses its decision has an event', () => {
    const f = facts({
      batches: new Map([
        [batchFactKey('apex', 'PX-1'), PENDING],
        [batchFactKey('apex', 'PX-2'), { ...PENDING, status: 'approved' }],
      ]),
    });
    const events = evidenceEvents(
      importBatch([
        batch({ status: 'rejected' }),
        batch({ batchId: 'PX-2', status: 'rejected' }), // approved before: the file reverses it
        batch({ batchId: 'PX-3' }), // new: history
        batch({ batchId: 'px-1', status: 'rejected' }), // the same batch twice: one event
      ]),
      f,
    );
    expect(events).toEqual([
      {
        type: 'coa.rejected',
        data: { vendor_slug: 'apex', batch_id: 'PX-1', peptide_slug: 'bpc-157', peptide_name: 'BPC-157' },
      },
      {
        type: 'coa.rejected',
        data: { vendor_slug: 'apex', batch_id: 'PX-2', peptide_slug: 'bpc-157', peptide_name: 'BPC-157' },
      },
    ]);
  });

  it('review.new for an id not stored; review.reply for a first reply, to the vendor the write leaves', () => {
    const review = {
      type: 'review',
      id: 'r2',
      vendorSlug: 'borealis',
      rating: 4,
      title: 'Good',
      body: 'Arrived fast.',
      author: 'Jo',
      createdAt: '2026-05-02T00:00:00.000Z',
    } as const;
    const f = facts({
      reviews: new Map([
        ['r1', { vendorSlug: 'apex', owner: 'Owner' }],
        ['r2', { vendorSlug: 'apex', owner: 'Owner' }],
      ]),
      replied: new Set(['r1']),
      vendorOwners: new Map([['borealis', null]]),
    });
    const reply = (reviewId: string) =>
      ({ type: 'reply', reviewId, body: 'Thanks', createdAt: '2026-05-03T00:00:00.000Z' }) as const;
    const b = importBatch([
      review,
      { ...review, id: 'r3' },
      reply('r1'),
      reply('r2'),
      reply('r3'),
      reply('r3'),
    ]);
    expect(chunkFactKeys(b).vendors).toEqual(['borealis']);
    const events = evidenceEvents(b, f);
    expect(
      events.map((e) => [e.type, e.data.vendor_slug, 'review_id' in e.data ? e.data.review_id : '']),
    ).toEqual([
      ['review.new', 'borealis', 'r3'],
      // r2 moved from apex to borealis in this write: its reply is borealis's.
      ['review.reply', 'borealis', 'r2'],
      ['review.reply', 'borealis', 'r3'],
    ]);
    expect(events[0]?.data).toEqual({
      vendor_slug: 'borealis',
      review_id: 'r3',
      rating: 4,
      title: 'Good',
      body: 'Arrived fast.',
      author: 'Jo',
      created_at: '2026-05-02T00:00:00.000Z',
    });
    for (const e of events) expect(Value.Check(EVENT_DATA[e.type], e.data)).toBe(true);
  });

  it('facts that lack a name the parser guaranteed are a bug, not a silent slug', () => {
    const f = facts({ peptideNames: new Map(), batches: new Map([[batchFactKey('apex', 'PX-1'), PENDING]]) });
    expect(() => evidenceEvents(importBatch([batch({})]), f)).toThrow(/peptide 'bpc-157'/);
  });
});
