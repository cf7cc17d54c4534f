import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type AdminFixture, expectError, iso, OTHER, OWNER, setupAdmin } from './helpers.ts';

interface ScoreChange {
  vendorSlug: string;
  previous: number | null;
  next: number;
}
interface VendorView {
  slug: string;
  score: number | null;
  computed: Record<string, number | null>;
  pillars: Record<string, number> | null;
  history: { score: number; reason: string; recordedAt: string }[];
  ownerAccount: string | null;
  verified: boolean;
  verifiedAt: string | null;
  listingPlan: string;
}

/** A write's scoreChanges agree with the vendor after it and with its newest history entry. */
function expectConsistent(before: VendorView, after: VendorView, changes: ScoreChange[], reason: string) {
  const mine = changes.filter((c) => c.vendorSlug === after.slug);
  if (after.score === before.score) {
    expect(mine).toEqual([]);
    expect(after.history).toHaveLength(before.history.length);
  } else {
    expect(mine).toEqual([{ vendorSlug: after.slug, previous: before.score, next: after.score }]);
    expect(after.history.at(-1)).toEqual({ score: after.score, reason, recordedAt: iso(0) });
  }
}

describe.each(DIALECTS)('operator API: vendors (%s)', (dialect) => {
  let f: AdminFixture;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const vendor = async (slug: string): Promise<VendorView> => {
    const res = await f.call('GET', `/vendors/${slug}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  describe('GET /vendors/{slug}', () => {
    it('shows stored flags, computed and effective pillars, score, overrides and history', async () => {
      const v = await vendor('apex');
      expect(v).toMatchObject({
        slug: 'apex',
        name: 'Apex Labs',
        verified: true,
        pending: false,
        verifiedAt: iso(-200 * 86_400_000),
        listingPlan: 'free',
        ownerAccount: OWNER,
        overrides: [],
      });
      // No overrides: the effective pillars are the computed ones, and the score is public.
      expect(v.pillars).toEqual(v.computed);
      expect(v.score).toBe(await f.publicScore('apex'));
      expect(v.history).toEqual([{ score: v.score, reason: 'import', recordedAt: iso(0) }]);
    });

    it('a vendor without evidence has no computed pillars and no score', async () => {
      expect(await vendor('bare')).toMatchObject({
        computed: { coa: null, purity: null, sentiment: null, transparency: null, experience: null },
        pillars: null,
        score: null,
        history: [],
        ownerAccount: null,
      });
    });

    it('404 for an unknown vendor', async () => {
      expect(expectError(await f.call('GET', '/vendors/nope'), 404, 'not_found')).toBe(
        "Vendor 'nope' does not exist.",
      );
    });
  });

  describe('PATCH /vendors/{slug}', () => {
    it('verifies (stamping verifiedAt), lists as premium, and unverifies (clearing verifiedAt)', async () => {
      const before = await vendor('borealis');
      const res = await f.call('PATCH', '/vendors/borealis', { verified: true }, { 'x-operator': 'ann' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.vendor).toMatchObject({ slug: 'borealis', verified: true, verifiedAt: iso(0) });
      expectConsistent(before, body.vendor, body.scoreChanges, 'vendor updated by ann');
      expect((await f.publicB('/vendors/borealis')).json().data.verified).toBe(true);

      const premium = await f.call('PATCH', '/vendors/borealis', { listingPlan: 'premium', pending: true });
      expect(premium.json().vendor).toMatchObject({ listingPlan: 'premium', pending: true, verified: true });

      const un = await f.call('PATCH', '/vendors/borealis', { verified: false, pending: false });
      expect(un.json().vendor).toMatchObject({ verified: false, verifiedAt: null, pending: false });
      expect(await vendor('borealis')).toMatchObject({ verified: false, listingPlan: 'premium' });
    });

    it.each([
      [{}, "Parameter 'body' must set at least one of verified, pending, listingPlan."],
      [{ listingPlan: 'gold' }, "Parameter 'listingPlan' must be one of free, premium."],
      [{ verified: 'maybe' }, "Parameter 'verified' must be of type boolean."],
      // No type coercion in JSON bodies: null is not false, "true" is not true.
      [{ verified: null }, "Parameter 'verified' must be of type boolean."],
      [{ pending: 'true' }, "Parameter 'pending' must be of type boolean."],
      [[{ verified: true }], "Parameter 'body' must be of type object."],
      [{ name: 'New name' }, "Parameter 'name' is not recognised."],
    ])('400 for %j', async (body, message) => {
      const version = f.dataVersion();
      expect(expectError(await f.call('PATCH', '/vendors/apex', body), 400, 'invalid_parameter')).toBe(
        message,
      );
      expect(f.dataVersion()).toBe(version);
    });

    it('asking for the current state writes nothing (changed: false); only differing fields are written', async () => {
      const version = f.dataVersion();
      const before = await vendor('apex');
      const res = await f.call('PATCH', '/vendors/apex', { verified: true, listingPlan: 'free' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ changed: false, vendor: before, scoreChanges: [] });
      expect(f.dataVersion()).toBe(version);
      // verified stays as it was (verifiedAt is not re-stamped); pending is written.
      const some = await f.call('PATCH', '/vendors/apex', { verified: true, pending: true });
      expect(some.json()).toMatchObject({
        changed: true,
        vendor: { verifiedAt: before.verifiedAt, pending: true },
      });
      await f.call('PATCH', '/vendors/apex', { pending: false });
    });

    it('404 for an unknown vendor', async () => {
      expectError(await f.call('PATCH', '/vendors/nope', { verified: true }), 404, 'not_found');
    });
  });

  describe('PUT /vendors/{slug}/claim', () => {
    it('gives the profile to an account and releases it; claimed shows in price tables', async () => {
      const claimedIn = async () =>
        (await f.publicB('/peptides/bpc-157/prices'))
          .json()
          .data.prices.find((p: { vendorSlug: string }) => p.vendorSlug === 'borealis').claimed;
      expect(await claimedIn()).toBe(false);
      const before = await vendor('borealis');
      const res = await f.call('PUT', '/vendors/borealis/claim', { account: OTHER }, { 'x-operator': 'ann' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.vendor.ownerAccount).toBe(OTHER);
      // A claimed profile is one of four profile facts, 0.2 of transparency: +5 points.
      expect(body.vendor.computed.transparency).toBe((before.computed.transparency ?? 0) + 5);
      expectConsistent(before, body.vendor, body.scoreChanges, 'claim by ann');
      expect(await claimedIn()).toBe(true);

      expect(body.changed).toBe(true);
      // Claiming for the current owner writes nothing.
      const version = f.dataVersion();
      const again = await f.call('PUT', '/vendors/borealis/claim', { account: OTHER });
      expect(again.json()).toMatchObject({
        changed: false,
        scoreChanges: [],
        vendor: { ownerAccount: OTHER },
      });
      expect(f.dataVersion()).toBe(version);

      const released = await f.call('PUT', '/vendors/borealis/claim', { account: null });
      expect(released.json().vendor.ownerAccount).toBeNull();
      expect(released.json().vendor.computed.transparency).toBe(before.computed.transparency);
      expect(await claimedIn()).toBe(false);
    });

    it('400 for an unknown account or a bad body; 404 for an unknown vendor', async () => {
      const version = f.dataVersion();
      expect(
        expectError(
          await f.call('PUT', '/vendors/borealis/claim', { account: 'Nobody' }),
          400,
          'invalid_parameter',
        ),
      ).toContain("account 'Nobody' does not exist");
      expect(expectError(await f.call('PUT', '/vendors/borealis/claim', {}), 400, 'invalid_parameter')).toBe(
        "Parameter 'account' is required.",
      );
      expect(
        expectError(
          await f.call('PUT', '/vendors/borealis/claim', { account: '' }),
          400,
          'invalid_parameter',
        ),
      ).toBe("Parameter 'account' must not be empty.");
      expectError(await f.call('PUT', '/vendors/nope/claim', { account: OWNER }), 404, 'not_found');
      expect(f.dataVersion()).toBe(version);
      expect((await vendor('borealis')).ownerAccount).toBeNull();
    });
  });

  describe('POST /vendors/{slug}/listings', () => {
    type Row = {
      vendorSlug: string;
      vialMg: number;
      totalUsd: number;
      live: boolean;
      inStock: boolean;
      updatedAt: string;
    };
    const apexRows = async (): Promise<Row[]> =>
      (await f.publicB('/peptides/bpc-157/prices'))
        .json()
        .data.prices.filter((p: Row) => p.vendorSlug === 'apex');

    it('writes live rows that replace the baseline of the same vial and show in price tables', async () => {
      expect(await apexRows()).toEqual([expect.objectContaining({ vialMg: 5, totalUsd: 60, live: false })]);
      const res = await f.call('POST', '/vendors/apex/listings', {
        rows: [
          { peptideSlug: 'bpc-157', vialMg: 5, totalUsd: 45, inStock: true },
          { peptideSlug: 'bpc-157', vialMg: 10, totalUsd: 80, inStock: false, updatedAt: iso(-HOUR_MS) },
        ],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ vendorSlug: 'apex', rows: 2, scoreChanges: expect.any(Array) });
      const rows = await apexRows();
      expect(rows).toHaveLength(2);
      expect(rows).toContainEqual(
        expect.objectContaining({ vialMg: 5, totalUsd: 45, inStock: true, live: true, updatedAt: iso(0) }),
      );
      expect(rows).toContainEqual(
        expect.objectContaining({
          vialMg: 10,
          totalUsd: 80,
          inStock: false,
          live: true,
          updatedAt: iso(-HOUR_MS),
        }),
      );
    });

    it("keeps the feed's changes in the price history, written by the operator who sent it", async () => {
      const res = await f.call(
        'POST',
        '/vendors/apex/listings',
        { rows: [{ peptideSlug: 'bpc-157', vialMg: 5, totalUsd: 42, inStock: true }] },
        { 'x-operator': 'pricing@purerank.test' },
      );
      expect(res.statusCode).toBe(200);
      const kept = await f.ctx.container.store.kysely
        .selectFrom('price_changes')
        .select(['old_total_usd', 'new_total_usd', 'source', 'changed_by'])
        .orderBy('id', 'desc')
        .limit(1)
        .execute();
      expect(kept).toEqual([
        {
          old_total_usd: 45,
          new_total_usd: 42,
          source: 'live',
          changed_by: 'listing feed by pricing@purerank.test',
        },
      ]);
      const stats = (await f.publicB('/peptides/bpc-157/price-stats')).json().data.stats;
      expect(stats.listedVendorCount).toBeGreaterThan(0);
    });

    it('a feed with one bad row (unknown peptide) is refused whole: no row, no event, no version bump', async () => {
      const version = f.dataVersion();
      const events = await f.events();
      const prices = (await f.publicB('/peptides/bpc-157/prices')).body;
      const res = await f.call('POST', '/vendors/apex/listings', {
        rows: [
          { peptideSlug: 'bpc-157', vialMg: 2, totalUsd: 1, inStock: true },
          { peptideSlug: 'nope', vialMg: 5, totalUsd: 1, inStock: true },
        ],
      });
      expect(expectError(res, 400, 'invalid_parameter')).toBe(
        "rows[1]: price: peptide 'nope' does not exist.",
      );
      expect(f.dataVersion()).toBe(version);
      expect(await f.events()).toEqual(events);
      expect((await f.publicB('/peptides/bpc-157/prices')).body).toBe(prices);
    });

    it.each([
      [{ rows: [] }, "'rows'"],
      [
        { rows: [{ peptideSlug: 'bpc-157', vialMg: 0, totalUsd: 1, inStock: true }] },
        "Parameter 'rows.0.vialMg'",
      ],
      [
        { rows: [{ peptideSlug: 'bpc-157', vialMg: 1, totalUsd: -1, inStock: true }] },
        "Parameter 'rows.0.totalUsd'",
      ],
      [{ rows: [{ peptideSlug: 'bpc-157', vialMg: 1, totalUsd: 1 }] }, "Parameter 'inStock' is required."],
      [
        { rows: [{ peptideSlug: 'bpc-157', vialMg: 1, totalUsd: 1, inStock: null }] },
        "Parameter 'rows.0.inStock' must be of type boolean.",
      ],
      [
        { rows: [{ peptideSlug: 'bpc-157', vialMg: '5', totalUsd: 1, inStock: true }] },
        "Parameter 'rows.0.vialMg' must be a number.",
      ],
      [{ rows: { peptideSlug: 'bpc-157' } }, "Parameter 'rows' must be of type array."],
      [
        { rows: [{ peptideSlug: 'bpc-157', vialMg: 1, totalUsd: 1, inStock: true, source: 'baseline' }] },
        "Parameter 'source' is not recognised.",
      ],
      [
        { rows: [{ peptideSlug: 'BPC 157', vialMg: 1, totalUsd: 1, inStock: true }] },
        "Parameter 'rows.0.peptideSlug'",
      ],
      [
        { rows: [{ peptideSlug: 'bpc-157', vialMg: 1, totalUsd: 1, inStock: true, updatedAt: 'yesterday' }] },
        "Parameter 'rows.0.updatedAt'",
      ],
      [
        {
          rows: [{ peptideSlug: 'bpc-157', vialMg: 1, totalUsd: 1, inStock: true, updatedAt: iso(HOUR_MS) }],
        },
        'rows[0]: price: updatedAt is in the future.',
      ],
      [
        {
          rows: [
            { peptideSlug: 'bpc-157', vialMg: 3, totalUsd: 1, inStock: true },
            { peptideSlug: 'bpc-157', vialMg: 3, totalUsd: 2, inStock: true },
          ],
        },
        'rows[1]: price',
      ],
      [
        {
          rows: Array.from({ length: 5001 }, () => ({
            peptideSlug: 'bpc-157',
            vialMg: 1,
            totalUsd: 1,
            inStock: true,
          })),
        },
        "'rows'",
      ],
      [{}, "Parameter 'rows' is required."],
    ])('400 naming the field (%#)', async (body, message) => {
      const version = f.dataVersion();
      expect(
        expectError(await f.call('POST', '/vendors/apex/listings', body), 400, 'invalid_parameter'),
      ).toContain(message);
      expect(f.dataVersion()).toBe(version);
    });

    it('404 for an unknown vendor', async () => {
      expectError(
        await f.call('POST', '/vendors/nope/listings', {
          rows: [{ peptideSlug: 'bpc-157', vialMg: 1, totalUsd: 1, inStock: true }],
        }),
        404,
        'not_found',
      );
    });
  });
});
