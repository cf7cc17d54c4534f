import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import { EVENT_DATA, EVENT_TYPES, type EventType } from '../../../src/core/events/model.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type AdminFixture, type EventOut, expectError, iso, OWNER, setupAdmin } from './helpers.ts';

describe.each(DIALECTS)('operator API: events and recompute (%s)', (dialect) => {
  let f: AdminFixture;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const page = async (query: string): Promise<{ data: EventOut[]; next: number | null }> => {
    const res = await f.call('GET', `/events${query}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  describe('GET /events', () => {
    it('lists the outbox oldest first; `next` pages through it and is null past the end', async () => {
      const all = await page('');
      expect(all.data.map((e) => [e.type, e.data.vendor_slug])).toEqual([
        ['review.new', 'apex'],
        ['review.new', 'borealis'],
      ]);
      for (const e of all.data) {
        expect(e).toEqual({
          seq: expect.any(Number),
          id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
          type: 'review.new',
          createdAt: iso(0),
          data: expect.objectContaining({ review_id: expect.any(String) }),
        });
      }
      expect(all.data[0]!.seq).toBeLessThan(all.data[1]!.seq);
      expect(all.next).toBe(all.data[1]!.seq);

      const first = await page('?limit=1');
      expect(first.data).toEqual([all.data[0]]);
      expect(first.next).toBe(all.data[0]!.seq);
      const second = await page(`?limit=1&after=${first.next}`);
      expect(second.data).toEqual([all.data[1]]);
      expect(await page(`?after=${all.next}`)).toEqual({ data: [], next: null });
    });

    it('filters by type and by vendor', async () => {
      await f.call('POST', '/vendors/borealis/batches/PEND-7/reject');
      expect((await page('?type=coa.rejected')).data.map((e) => e.data)).toEqual([
        { vendor_slug: 'borealis', batch_id: 'PEND-7', peptide_slug: 'bpc-157', peptide_name: 'BPC-157' },
      ]);
      expect((await page('?vendor=borealis')).data.map((e) => e.type)).toEqual([
        'review.new',
        'coa.rejected',
      ]);
      expect((await page('?vendor=borealis&type=review.new')).data).toHaveLength(1);
      expect(await page('?vendor=bare')).toEqual({ data: [], next: null });
      // A typo is not a vendor without events.
      expect(expectError(await f.call('GET', '/events?vendor=nope'), 404, 'not_found')).toBe(
        "Vendor 'nope' does not exist.",
      );
    });

    it('limit: default 100, at most 1000', async () => {
      const reviews = Array.from({ length: 120 }, (_, i) => ({
        type: 'review',
        id: `bulk-${i}`,
        vendorSlug: 'bare',
        rating: 4,
        title: 't',
        body: 'b',
        author: 'a',
        createdAt: iso(-DAY_MS),
      }));
      expect((await f.ctx.load(reviews)).ok).toBe(true);
      const total = (await page('?limit=1000')).data.length;
      expect(total).toBeGreaterThan(120);
      const first = await page('');
      expect(first.data).toHaveLength(100);
      const rest = await page(`?after=${first.next}`);
      expect(rest.data).toHaveLength(total - 100);
      expect(rest.data[0]!.seq).toBeGreaterThan(first.next!);
    });

    it.each([
      ['limit=0', "Parameter 'limit' must be at least 1."],
      ['limit=1001', "Parameter 'limit' must be at most 1000."],
      ['after=-1', "Parameter 'after' must be at least 0."],
      ['after=x', "Parameter 'after' must be an integer."],
      ['type=score.up', "Parameter 'type' must be one of score.changed, vendor.tier_upgraded"],
    ])('?%s is 400', async (query, message) => {
      expect(expectError(await f.call('GET', `/events?${query}`), 400, 'invalid_parameter')).toContain(
        message,
      );
    });
  });

  describe('POST /scores/recompute', () => {
    it('with nothing changed since the last computation it changes nothing', async () => {
      const version = f.dataVersion();
      const events = await f.events();
      const res = await f.call('POST', '/scores/recompute');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ vendors: 3, updated: 0, changed: 0, scoreChanges: [] });
      expect(f.dataVersion()).toBe(version);
      expect(await f.events()).toEqual(events);
    });

    it('as time passes, evidence ages: scores move, with history and score.changed events', async () => {
      const before = { apex: await f.publicScore('apex'), borealis: await f.publicScore('borealis') };
      const version = f.dataVersion();
      const seen = (await f.events()).length;
      // 120 days on, apex's newest CoA (10 days old at load) is 130 days old: CoA recency falls.
      f.ctx.clock.advance(120 * DAY_MS);
      const res = await f.call('POST', '/scores/recompute', undefined, { 'x-operator': 'ops-bot' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.vendors).toBe(3);
      expect(body.changed).toBe(body.scoreChanges.length);
      expect(body.updated).toBeGreaterThanOrEqual(body.changed);
      const moved = body.scoreChanges.map((c: { vendorSlug: string }) => c.vendorSlug).sort();
      expect(moved).toContain('apex');
      expect(moved).not.toContain('bare');
      expect(f.dataVersion()).toBeGreaterThan(version);

      const fresh = (await f.events()).slice(seen);
      for (const c of body.scoreChanges as {
        vendorSlug: 'apex' | 'borealis';
        previous: number;
        next: number;
      }[]) {
        expect(c.previous).toBe(before[c.vendorSlug]);
        expect(await f.publicScore(c.vendorSlug)).toBe(c.next);
        const view = (await f.call('GET', `/vendors/${c.vendorSlug}`)).json();
        expect(view.history.at(-1)).toEqual({
          score: c.next,
          reason: 'recompute by ops-bot',
          recordedAt: iso(120 * DAY_MS),
        });
        const event = fresh.find((e) => e.type === 'score.changed' && e.data.vendor_slug === c.vendorSlug);
        expect(event?.data).toMatchObject({
          previous_score: c.previous,
          new_score: c.next,
          delta: c.next - c.previous,
        });
        expect(event?.createdAt).toBe(iso(120 * DAY_MS));
      }
      expect(fresh.filter((e) => e.type === 'score.changed')).toHaveLength(body.changed);
    });
  });
});

describe.each(DIALECTS)('operator API: event payloads (%s)', (dialect) => {
  it("every event's data has the documented shape of its kind (docs/events.md)", async () => {
    const f = await setupAdmin(dialect);
    try {
      const ok = async (res: Promise<{ statusCode: number; body: string }>) =>
        expect((await res).statusCode, (await res).body).toBeLessThan(300);
      await ok(f.call('POST', '/vendors/apex/batches/TB-2/approve', {}));
      await ok(f.call('POST', '/vendors/borealis/batches/PEND-7/reject'));
      const review = await f.call('POST', '/reviews', {
        vendorSlug: 'apex',
        rating: 2,
        title: 't',
        body: 'b',
        author: 'a',
      });
      await ok(f.call('POST', `/reviews/${review.json().id}/reply`, { body: 'Sorry', account: OWNER }));
      await ok(f.call('PUT', '/vendors/apex/overrides/score', { value: 95, reason: 'audit' }));
      const all = await f.events();
      expect(new Set(all.map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
      for (const e of all) {
        const errors = [...Value.Errors(EVENT_DATA[e.type as EventType], e.data)];
        expect(errors, `${e.type} ${JSON.stringify(e.data)}`).toEqual([]);
      }
    } finally {
      await f.ctx.close();
    }
  });
});
