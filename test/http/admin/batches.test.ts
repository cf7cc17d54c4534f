import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type AdminFixture, expectError, iso, LAB, setupAdmin } from './helpers.ts';

const ODD = 'LOT/2026#A?1';

describe.each(DIALECTS)('operator API: batch review (%s)', (dialect) => {
  let f: AdminFixture;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const refused = async (run: () => Promise<LightMyRequestResponse>, status: number, code: string) => {
    const version = f.dataVersion();
    const events = await f.events();
    const message = expectError(await run(), status, code);
    expect(f.dataVersion()).toBe(version);
    expect(await f.events()).toEqual(events);
    return message;
  };
  const lookup = async (batchId: string, vendor: string) =>
    (await f.publicB(`/batches/${encodeURIComponent(batchId)}?vendor=${vendor}`)).json().data.state;

  describe('GET /batches/pending', () => {
    it('lists pending submissions oldest first, with paging', async () => {
      const res = await f.call('GET', '/batches/pending');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ total: 3, limit: 50, offset: 0 });
      expect(body.data.map((b: { batchId: string }) => b.batchId)).toEqual(['PEND-7', 'TB-2', ODD]);
      expect(body.data[1]).toEqual({
        vendorSlug: 'apex',
        batchId: 'TB-2',
        peptideSlug: 'tb-500',
        status: 'pending',
        purity: 99,
        lab: LAB,
        testMethod: 'HPLC-MS',
        testedAt: iso(-3 * DAY_MS),
        source: null,
        sourceUrl: 'https://apex.example.com/coa/2.pdf',
        submittedAt: iso(-2 * DAY_MS),
        // Imported submissions have no CoA upload; test/http/coa covers the ones that do.
        uploads: [],
        uploadsTotal: 0,
      });
      const page = (await f.call('GET', '/batches/pending?limit=1&offset=1')).json();
      expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
      expect(page.data.map((b: { batchId: string }) => b.batchId)).toEqual(['TB-2']);
    });

    it.each([
      ['limit=0', "Parameter 'limit' must be at least 1."],
      ['limit=201', "Parameter 'limit' must be at most 200."],
      ['limit=abc', "Parameter 'limit' must be an integer."],
      ['offset=-1', "Parameter 'offset' must be at least 0."],
    ])('?%s is 400', async (query, message) => {
      expect(expectError(await f.call('GET', `/batches/pending?${query}`), 400, 'invalid_parameter')).toBe(
        message,
      );
    });
  });

  describe('approve', () => {
    it("approving a pending batch moves the vendor's score, records history and writes coa.approved + score.changed", async () => {
      const before = await f.publicScore('apex');
      expect(before).not.toBeNull();
      const seen = (await f.events()).length;
      const res = await f.call('POST', '/vendors/apex/batches/TB-2/approve', undefined, {
        'x-operator': 'ann',
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.batch).toMatchObject({ batchId: 'TB-2', status: 'approved', purity: 99, lab: LAB });
      const after = await f.publicScore('apex');
      // CoA coverage goes from 1 of 2 listed peptides to 2 of 2: the score must move.
      expect(after).not.toBe(before);
      expect(body.scoreChanges).toEqual([{ vendorSlug: 'apex', previous: before, next: after }]);

      const view = (await f.call('GET', '/vendors/apex')).json();
      expect(view.score).toBe(after);
      expect(view.history.at(-1)).toEqual({
        score: after,
        reason: 'batch approved by ann',
        recordedAt: iso(0),
      });

      const fresh = (await f.events()).slice(seen);
      const approved = fresh.find((e) => e.type === 'coa.approved');
      const changed = fresh.find((e) => e.type === 'score.changed');
      expect(approved?.data).toEqual({
        vendor_slug: 'apex',
        batch_id: 'TB-2',
        peptide_slug: 'tb-500',
        peptide_name: 'TB-500',
        purity: 99,
        lab: LAB,
        lab_name: 'Janoshik Analytical',
        test_method: 'HPLC-MS',
        tested_at: iso(-3 * DAY_MS),
      });
      expect(changed?.data).toMatchObject({
        vendor_slug: 'apex',
        previous_score: before,
        new_score: after,
        delta: (after ?? 0) - (before ?? 0),
      });
      expect(approved!.seq).toBeLessThan(changed!.seq);
      expect(fresh.every((e) => e.data.vendor_slug === 'apex' && e.createdAt === iso(0))).toBe(true);

      expect(await lookup('TB-2', 'apex')).toBe('verified');
      const pending = (await f.call('GET', '/batches/pending')).json();
      expect(pending.total).toBe(2);
    });

    it('approving a batch that is not pending is 409', async () => {
      expect(
        await refused(() => f.call('POST', '/vendors/apex/batches/TB-2/approve', {}), 409, 'conflict'),
      ).toBe("Batch 'TB-2' of 'apex' is approved, not pending.");
      await refused(() => f.call('POST', '/vendors/apex/batches/REJ-1/approve', {}), 409, 'conflict');
    });

    it.each([
      [{}, 'an approved batch needs purity, lab, testMethod, testedAt'],
      [{ purity: 98.7 }, 'an approved batch needs lab, testMethod, testedAt'],
      [
        { purity: 98.7, lab: 'nolab', testMethod: 'HPLC', testedAt: iso(-DAY_MS) },
        "lab 'nolab' does not exist",
      ],
      [{ purity: 98.7, lab: LAB, testMethod: 'HPLC', testedAt: iso(DAY_MS) }, 'testedAt is in the future'],
      [{ purity: 101 }, "Parameter 'purity' must be at most 100."],
      [{ purity: null }, "Parameter 'purity' must be a number."],
      [{ lab: 'Not A Slug' }, "Parameter 'lab' has an invalid format."],
      [{ status: 'approved' }, "Parameter 'status' is not recognised."],
    ])(
      'approving without the test facts, or with bad ones, is 400 and writes nothing (%#)',
      async (body, message) => {
        expect(
          await refused(
            () => f.call('POST', '/vendors/borealis/batches/PEND-7/approve', body),
            400,
            'invalid_parameter',
          ),
        ).toContain(message);
      },
    );

    it('the operator completes what the submission lacks; batch numbers match case-insensitively', async () => {
      const facts = { purity: 98.7, lab: LAB, testMethod: 'HPLC', testedAt: iso(-DAY_MS) };
      const res = await f.call('POST', '/vendors/borealis/batches/pend-7/approve', facts);
      expect(res.statusCode).toBe(200);
      expect(res.json().batch).toMatchObject({ batchId: 'PEND-7', status: 'approved', ...facts });
      expect(await lookup('PEND-7', 'borealis')).toBe('verified');
      const view = (await f.call('GET', '/vendors/borealis')).json();
      expect(view.history.at(-1).reason).toBe('batch approved by admin-api');
    });
  });

  describe('reject', () => {
    it('rejects a pending batch (URL-encoded id): coa.rejected, and the lookup says missing', async () => {
      const before = (await f.call('GET', '/vendors/borealis')).json();
      const seen = (await f.events()).length;
      const res = await f.call('POST', `/vendors/borealis/batches/${encodeURIComponent(ODD)}/reject`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        batch: expect.objectContaining({ batchId: ODD, status: 'rejected', vendorSlug: 'borealis' }),
        scoreChanges: [],
      });
      expect((await f.events()).slice(seen)).toEqual([
        expect.objectContaining({
          type: 'coa.rejected',
          data: { vendor_slug: 'borealis', batch_id: ODD, peptide_slug: 'bpc-157', peptide_name: 'BPC-157' },
        }),
      ]);
      expect(await lookup(ODD, 'borealis')).toBe('missing');
      // A pending submission was no evidence, and a rejected one is none either.
      expect((await f.call('GET', '/vendors/borealis')).json().score).toBe(before.score);
      expect((await f.call('GET', '/batches/pending')).json().total).toBe(0);
    });

    it('409 for a batch that is not pending; 404 for an unknown batch or vendor; 400 for an over-long id', async () => {
      expect(await refused(() => f.call('POST', '/vendors/apex/batches/REJ-1/reject'), 409, 'conflict')).toBe(
        "Batch 'REJ-1' of 'apex' is rejected, not pending.",
      );
      await refused(() => f.call('POST', '/vendors/apex/batches/BPC-001/reject'), 409, 'conflict');
      expect(await refused(() => f.call('POST', '/vendors/apex/batches/NOPE/reject'), 404, 'not_found')).toBe(
        "Batch 'NOPE' does not exist.",
      );
      // A batch of another vendor is not this vendor's.
      await refused(() => f.call('POST', '/vendors/borealis/batches/BPC-001/reject'), 404, 'not_found');
      expect(
        await refused(() => f.call('POST', '/vendors/nope/batches/X/approve', {}), 404, 'not_found'),
      ).toBe("Vendor 'nope' does not exist.");
      expect(
        await refused(
          () => f.call('POST', `/vendors/apex/batches/${'x'.repeat(129)}/reject`),
          400,
          'invalid_parameter',
        ),
      ).toBe("Parameter 'batchId' must be at most 128 characters long.");
    });

    it('an optional reason is kept in the decision log with X-Operator; a bad one is 400 and decides nothing', async () => {
      const log = () => f.ctx.container.operator.actions({ vendorSlug: 'borealis', limit: 10 });
      const queued = await f.ctx.load([
        {
          type: 'batch',
          vendorSlug: 'borealis',
          batchId: 'PEND-8',
          peptideSlug: 'bpc-157',
          status: 'pending',
          submittedAt: iso(-DAY_MS),
        },
      ]);
      expect(queued.ok, JSON.stringify(queued)).toBe(true);
      const before = await log();
      for (const [body, message] of [
        [{ reason: 'r'.repeat(501) }, "Parameter 'reason' must be at most 500 characters long."],
        [{ reason: '  ' }, "Parameter 'reason' has an invalid format."],
        [{ reason: 5 }, "Parameter 'reason' must be of type string."],
        [{ why: 'x' }, undefined],
      ] as const) {
        const m = await refused(
          () => f.call('POST', '/vendors/borealis/batches/PEND-8/reject', body),
          400,
          'invalid_parameter',
        );
        if (message) expect(m).toBe(message);
      }
      expect(await log()).toEqual(before);

      const res = await f.call(
        'POST',
        '/vendors/borealis/batches/pend-8/reject',
        { reason: '  CoA is for another lot ' },
        { 'x-operator': 'ann@example.com' },
      );
      expect(res.statusCode, res.body).toBe(200);
      const [entry] = await log();
      expect(entry).toMatchObject({
        action: 'batch.rejected',
        vendorSlug: 'borealis',
        subject: 'PEND-8',
        actor: 'ann@example.com',
        reason: 'CoA is for another lot',
        at: iso(0),
      });
      // The earlier rejection without a body is in the log too, with no reason and the default actor.
      expect((await log()).find((a) => a.subject === ODD)).toMatchObject({
        actor: 'admin-api',
        reason: null,
      });
    });
  });
});
