import type { Command } from 'commander';
import { sql } from 'kysely';
import { REVIEWS_PER_VENDOR, scaleDataset } from '../seed/scale-dataset.ts';
import { seedDemo } from '../seed/seed-demo.ts';
import { withContainer } from './context.ts';
import { positiveInt } from './output.ts';
import { Progress } from './progress.ts';

export function seedCommand(program: Command): void {
  const seed = program.command('seed').description('Load generated datasets.');
  seed
    .command('demo')
    .description(
      'Load the deterministic demo dataset (about 60 vendors, 40 peptides, prices, batches, reviews).',
    )
    .action(async () => {
      await withContainer(async ({ store, clock }) => {
        const counts = await seedDemo({ store: store.imports, clock });
        process.stdout.write(
          `demo data loaded: ${Object.entries(counts)
            .map(([t, n]) => `${n} ${t}`)
            .join(', ')}\n`,
        );
      });
    });
  seed
    .command('scale')
    .description(
      'Load a large synthetic dataset for benchmarks, in one transaction. Scores come from the evidence ' +
        '(batches, labs, prices, reviews); one vendor in 200 also has an operator override.',
    )
    .option('--vendors <n>', 'vendors', '10000')
    .option('--batches <n>', 'batches', '1000000')
    .option('--peptides <n>', 'peptides', '2000')
    .option('--reviews <n>', `reviews (default ${REVIEWS_PER_VENDOR} per vendor; 0 for none)`)
    .action(async (o: { vendors: string; batches: string; peptides: string; reviews?: string }) => {
      const vendors = positiveInt('--vendors', o.vendors, 1_000_000);
      const opts = {
        vendors,
        batches: positiveInt('--batches', o.batches, 50_000_000),
        peptides: positiveInt('--peptides', o.peptides, 100_000),
        reviews:
          o.reviews === undefined
            ? REVIEWS_PER_VENDOR * vendors
            : o.reviews === '0'
              ? 0
              : positiveInt('--reviews', o.reviews, 50_000_000),
      };
      await withContainer(async ({ store, clock }) => {
        const started = Date.now();
        // One transaction of ~400 MB: a page cache that holds the indexes being built keeps it
        // off the disk (measured: 60 s with the default 16 MiB, see the bench README).
        if (store.dialect === 'sqlite') await sql`pragma cache_size = -262144`.execute(store.kysely);
        // Vendors, their listings (about 9 price rows each) and the rest; only for the progress bar.
        const total = opts.vendors * 10 + opts.batches + opts.peptides + opts.reviews;
        const bar = new Progress('seeding');
        // Generated records are valid by construction (and tested so): they skip per-line parsing.
        const counts = await store.imports.applyChunks(scaleDataset(opts, clock.now()), {
          nowIso: new Date(clock.now()).toISOString(),
          reason: 'scale seed',
          onChunk: (c) =>
            bar.update(
              Object.values(c).reduce((s, n) => s + n, 0),
              total,
            ),
        });
        bar.done();
        const secs = ((Date.now() - started) / 1000).toFixed(1);
        // The price records written include each listing's earlier versions (its 90 days of price
        // history): the listings themselves are the rows that hold the current price.
        const listings = await store.kysely
          .selectFrom('prices')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        const written = counts.price ?? 0;
        process.stdout.write(
          `scale data loaded in ${secs} s: ${Object.entries(counts)
            .map(([t, n]) =>
              t === 'price'
                ? `${Number(listings.n)} price (${written - Number(listings.n)} earlier versions kept as price history)`
                : `${n} ${t}`,
            )
            .join(', ')}\n`,
        );
      });
    });
}
