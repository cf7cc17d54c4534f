import { describe, expect, it } from 'vitest';
import { compositeOf } from '../../src/core/scoring/composite.ts';
import { OVERRIDE_EVERY, REVIEWS_PER_VENDOR } from '../../src/seed/scale-dataset.ts';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import { DIALECTS, freshDatabases, runCli } from './run-cli.ts';

const VENDORS = 400;

describe.concurrent.each(DIALECTS)('purerank seed scale (%s)', (dialect) => {
  const fresh = freshDatabases(dialect);

  it('loads evidence from which most vendors get a spread of scores, with few overrides', async () => {
    const env = { DATABASE_URL: await fresh() };
    const r = await runCli(
      ['seed', 'scale', '--vendors', String(VENDORS), '--batches', '20000', '--peptides', '50'],
      env,
    );
    expect(r.code).toBe(0);
    const overrides = Math.ceil((VENDORS - 7) / OVERRIDE_EVERY);
    expect(r.stdout).toContain(`${VENDORS} vendor, ${overrides} override`);
    expect(r.stdout).toContain(`20000 batch, ${VENDORS * REVIEWS_PER_VENDOR} review`);

    const store = await openStore(parseDatabaseUrl(env.DATABASE_URL), { migrate: false });
    try {
      const vendors = await store.catalog.listVendors();
      const scored = vendors.filter((v) => v.score !== null && v.pillars !== null);
      // Newcomers (no approved batch yet) stay unscored; everyone else is scored from evidence.
      expect(scored.length / vendors.length).toBeGreaterThan(0.93);
      expect(scored.length).toBeLessThan(vendors.length);
      const scores = scored.map((v) => v.score!).sort((a, b) => a - b);
      expect(scores.at(-1)! - scores[0]!).toBeGreaterThan(25);
      expect(new Set(scores).size).toBeGreaterThan(25);
      const overridden = new Set(
        (await store.kysely.selectFrom('overrides').select('vendor_id').execute()).map((o) => o.vendor_id),
      );
      expect(overridden.size).toBe(overrides);
      // Without an override, the composite is the weighted mean of the pillars computed from evidence.
      for (const v of scored) if (!overridden.has(v.id)) expect(v.score).toBe(compositeOf(v.pillars!));
      // 90 days of price history: the listings' earlier versions are kept as price changes.
      const count = async (table: 'prices' | 'price_changes') =>
        Number(
          (
            await store.kysely
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count('price_changes')).toBeGreaterThan(2.5 * (await count('prices')));
      // The summary line counts the listings, and the earlier versions apart.
      const listings = await count('prices');
      expect(r.stdout).toMatch(
        new RegExp(`\\b${listings} price \\(\\d+ earlier versions kept as price history\\)`),
      );
    } finally {
      await store.close();
    }
  }, 60_000);

  it('takes --reviews, 0 included', async () => {
    const env = { DATABASE_URL: await fresh() };
    const none = await runCli(
      ['seed', 'scale', '--vendors', '10', '--batches', '50', '--peptides', '5', '--reviews', '0'],
      env,
    );
    expect(none.code).toBe(0);
    expect(none.stdout).not.toContain('review');
    const some = await runCli(
      ['seed', 'scale', '--vendors', '10', '--batches', '50', '--peptides', '5', '--reviews', '33'],
      env,
    );
    expect(some.code).toBe(0);
    expect(some.stdout).toContain('33 review');
    const bad = await runCli(['seed', 'scale', '--reviews', 'many'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe("purerank: --reviews must be a whole number, got 'many'");
  }, 60_000);
});
