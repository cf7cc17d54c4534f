import { describe, expect, it } from 'vitest';
import type { ImportRecord } from '../../../src/core/import/records.ts';
import { batchFactKey, expectationFactKeys, type WriteFacts } from '../../../src/core/import/write-facts.ts';
import { checkChunk, checkExpectations } from '../../../src/core/import/write-rules.ts';
import { importBatch } from '../../storage/support.ts';

const facts = (over: Partial<WriteFacts> = {}): WriteFacts => ({
  reviews: new Map([
    ['r-apex', { vendorSlug: 'apex', owner: 'Owner' }],
    ['r-bor', { vendorSlug: 'borealis', owner: null }],
  ]),
  replied: new Set(['r-done']),
  batches: new Map([
    [
      batchFactKey('apex', 'PX-1'),
      { status: 'pending', purity: null, lab: null, testMethod: null, testedAt: null },
    ],
    [
      batchFactKey('apex', 'PX-2'),
      { status: 'approved', purity: 99, lab: null, testMethod: null, testedAt: null },
    ],
  ]),
  peptideNames: new Map(),
  labNames: new Map(),
  vendorOwners: new Map([['borealis', null]]),
  accounts: new Map([['Owner', 'pro']]),
  ...over,
});

const reply = (reviewId: string, account?: string): ImportRecord => ({
  type: 'reply',
  reviewId,
  body: 'Thanks',
  createdAt: '2026-05-03T00:00:00.000Z',
  ...(account ? { account } : {}),
});

describe('checkChunk: who may reply', () => {
  it("the vendor's owner may; a reply without an author (imported history) is not checked", () => {
    expect(() => checkChunk(importBatch([reply('r-apex', 'Owner'), reply('r-bor')]), facts())).not.toThrow();
  });

  it('another account is invalid_parameter naming account; an unclaimed vendor is conflict', () => {
    expect(() => checkChunk(importBatch([reply('r-apex', 'Other')]), facts())).toThrow(
      expect.objectContaining({
        code: 'invalid_parameter',
        details: { parameter: 'account' },
        message:
          "Account 'Other' cannot reply to review 'r-apex': a reply's account must be the account that owns vendor 'apex'.",
      }),
    );
    expect(() => checkChunk(importBatch([reply('r-bor', 'Owner')]), facts())).toThrow(
      expect.objectContaining({ code: 'conflict', message: expect.stringContaining('not claimed') }),
    );
  });

  it('a review the same write moves to another vendor is replied to by that vendor’s owner', () => {
    const moved: ImportRecord = {
      type: 'review',
      id: 'r-apex',
      vendorSlug: 'borealis',
      rating: 3,
      title: '',
      body: '',
      author: 'a',
      createdAt: '2026-05-01T00:00:00.000Z',
    };
    expect(() => checkChunk(importBatch([moved, reply('r-apex', 'Owner')]), facts())).toThrow(
      expect.objectContaining({ code: 'conflict' }),
    );
  });
});

describe('checkExpectations', () => {
  it('passes when every precondition holds', () => {
    const e = {
      newReviews: ['r-new'],
      unrepliedReviews: ['r-apex'],
      pendingBatches: [{ vendorSlug: 'apex', batchId: ' px-1' }],
      accounts: [{ name: 'Owner', plan: 'pro' as const }],
    };
    expect(expectationFactKeys(e)).toMatchObject({
      reviews: ['r-new'],
      replied: ['r-apex'],
      accounts: ['Owner'],
    });
    expect(() => checkExpectations(e, facts())).not.toThrow();
  });

  it.each([
    [{ newReviews: ['r-apex'] }, 'conflict', "Review 'r-apex' already exists."],
    [{ unrepliedReviews: ['r-done'] }, 'conflict', "Review 'r-done' already has a reply."],
    [
      { pendingBatches: [{ vendorSlug: 'apex', batchId: 'PX-2' }] },
      'conflict',
      "Batch 'PX-2' of 'apex' is approved, not pending.",
    ],
    [
      { pendingBatches: [{ vendorSlug: 'apex', batchId: 'PX-9' }] },
      'conflict',
      "Batch 'PX-9' of 'apex' is missing, not pending.",
    ],
    [{ accounts: [{ name: 'Nobody' }] }, 'not_found', "Account 'Nobody' does not exist."],
    [
      { accounts: [{ name: 'Owner', plan: 'free' as const }] },
      'conflict',
      expect.stringContaining('changed plan (now pro)'),
    ],
  ])('%j fails with %s', (e, code, message) => {
    expect(() => checkExpectations(e, facts())).toThrow(expect.objectContaining({ code, message }));
  });
});
