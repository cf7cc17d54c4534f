import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { AggregatorRegistry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { type Container, createContainer } from '../../../src/container.ts';
import { buildApp } from '../../../src/http/app.ts';
import { PRIVATE_POSTGRES, PrivatePostgres } from '../../faults/support/private-postgres.ts';
import { ADMIN_TOKEN, bearer, createTestContext, type TestContext } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { parsePrometheusText, type Sample, sampleValue } from './prometheus-text.ts';

/*
 * Issue [9], B1: when the outbox query fails (the database is away) or takes over 1 s, the two
 * outbox gauges are left out of that scrape, as docs/reliability.md says, rather than exposed as 0
 * (a 0 would clear the backlog alert exactly while the database is away); the error counter moves.
 * The failures are real: a PostgreSQL lock held by another session, and a PostgreSQL server of the
 * test's own stopped under the running app.
 */

const GAUGES = ['purerank_outbox_pending_events', 'purerank_outbox_oldest_pending_age_seconds'];
const ERRORS = 'purerank_outbox_lag_errors_total';
const OVERRIDE = (value: number) => ({
  type: 'override',
  vendorSlug: 'apex',
  field: 'coa',
  value,
  reason: 'test',
});
const FIXTURE = [
  { type: 'peptide', slug: 'bpc-157', name: 'BPC-157', category: 'healing', molecularWeight: '1419.5 g/mol' },
  { type: 'vendor', slug: 'apex', name: 'Apex', location: 'Canada', verified: true, listingPlan: 'premium' },
  ...['coa', 'purity', 'sentiment', 'transparency', 'experience'].map((field) => ({
    type: 'override',
    vendorSlug: 'apex',
    field,
    value: 90,
    reason: 'test',
  })),
];

/** The sample lines (not the # HELP / # TYPE comments) of the two outbox gauges. */
const gaugeLines = (text: string): string[] =>
  text.split('\n').filter((l) => GAUGES.some((g) => l.startsWith(`${g} `) || l.startsWith(`${g}{`)));

async function scrape(base: string): Promise<{ text: string; samples: Sample[]; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${base}/metrics`, { headers: bearer(ADMIN_TOKEN) });
  const text = await res.text();
  const ms = performance.now() - t0;
  expect(res.status, text).toBe(200);
  return { text, samples: parsePrometheusText(text), ms };
}

describe.skipIf(!DIALECTS.includes('postgres'))('/metrics: an outbox query over 1 s (PostgreSQL)', () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestContext('postgres');
    expect((await ctx.load(FIXTURE)).ok).toBe(true);
    // A lower pillar moves the score: a score.changed event, pending (no delivery worker runs here).
    expect((await ctx.load([OVERRIDE(20)])).ok).toBe(true);
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => ctx?.close());

  it('leaves both gauges out of that scrape and counts an error; the next scrape has them again', async () => {
    const before = await scrape(base);
    expect(gaugeLines(before.text)).toHaveLength(2);
    expect(sampleValue(before.samples, 'purerank_outbox_pending_events')).toBeGreaterThan(0);
    const errorsBefore = sampleValue(before.samples, ERRORS);

    // Another session holds the fan-out cursor's table: the outbox query waits behind its lock.
    const locker = new pg.Client({ connectionString: ctx.databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table webhook_state in access exclusive mode');
      const slow = await scrape(base);
      // Answered after the 1 s limit, not after the lock.
      expect(slow.ms).toBeGreaterThanOrEqual(950);
      expect(slow.ms).toBeLessThan(3_000);
      expect(gaugeLines(slow.text)).toEqual([]);
      expect(slow.samples.filter((s) => GAUGES.includes(s.name))).toEqual([]);
      expect(sampleValue(slow.samples, ERRORS)).toBe(errorsBefore + 1);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
    }

    const after = await scrape(base);
    expect(gaugeLines(after.text)).toHaveLength(2);
    expect(sampleValue(after.samples, 'purerank_outbox_pending_events')).toBe(
      sampleValue(before.samples, 'purerank_outbox_pending_events'),
    );
    expect(sampleValue(after.samples, ERRORS)).toBe(errorsBefore + 1);
  });
});

describe.skipIf(!PRIVATE_POSTGRES)('/metrics: the database away (a PostgreSQL server stopped)', () => {
  let server: PrivatePostgres;
  let container: Container;
  let app: FastifyInstance;
  let base: string;
  /** A second app on its own database, whose outbox answers: another worker of the same service. */
  let other: TestContext;

  beforeAll(async () => {
    server = await PrivatePostgres.create();
    const url = await server.createDatabase('purerank');
    const config = loadConfig({
      DATABASE_URL: url,
      PURERANK_ADMIN_TOKEN: ADMIN_TOKEN,
      PURERANK_SEED_DEMO: 'false',
      WEBHOOK_WORKER: 'false',
    });
    container = await createContainer(config, { limiter: 'memory' });
    app = await buildApp(container, { logger: false });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    other = await createTestContext('sqlite');
    expect((await other.load(FIXTURE)).ok).toBe(true);
    expect((await other.load([OVERRIDE(20)])).ok).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await container?.close().catch(() => {});
    await other?.close();
    await server?.destroy();
  }, 30_000);

  it('leaves both gauges out while it is away (errors counted), has them again once it is back, and a cluster aggregate makes no 0 of them', async () => {
    const up = await scrape(base);
    expect(gaugeLines(up.text)).toHaveLength(2);
    expect(sampleValue(up.samples, 'purerank_outbox_pending_events')).toBe(0);
    const errorsBefore = sampleValue(up.samples, ERRORS);

    await server.stop('fast');
    const down = await scrape(base);
    expect(gaugeLines(down.text)).toEqual([]);
    expect(down.samples.filter((s) => GAUGES.includes(s.name))).toEqual([]);
    expect(sampleValue(down.samples, ERRORS)).toBe(errorsBefore + 1);
    // A second scrape while away: still absent, one more error.
    const again = await scrape(base);
    expect(gaugeLines(again.text)).toEqual([]);
    expect(sampleValue(again.samples, ERRORS)).toBe(errorsBefore + 2);

    // `serve --workers N`: the primary aggregates what each worker's registries give
    // (each worker sends getMetricsAsJSON of its registries; AggregatorRegistry.aggregate merges them,
    // src/http/metrics/cluster-metrics.ts).
    const aggregate = async (apps: FastifyInstance[]) => {
      const each = await Promise.all(apps.map((a) => a.metrics.registry.getMetricsAsJSON()));
      return AggregatorRegistry.aggregate(each).metrics();
    };
    // Every worker without the outbox: no sample, not a 0.
    const allDown = await aggregate([app, app]);
    expect(gaugeLines(allDown)).toEqual([]);
    parsePrometheusText(allDown);
    // One worker without it, one with it: the one reading, not a 0 and not a blend.
    const pending = sampleValue(parsePrometheusText((await scrape(await otherBase())).text), GAUGES[0]!);
    expect(pending).toBeGreaterThan(0);
    const mixed = parsePrometheusText(await aggregate([app, other.app]));
    expect(sampleValue(mixed, 'purerank_outbox_pending_events')).toBe(pending);
    expect(mixed.filter((s) => s.name === 'purerank_outbox_pending_events')).toHaveLength(1);

    await server.start();
    // The pool reconnects on its next query: the first scrape after the restart may still miss.
    const deadline = Date.now() + 10_000;
    let back = await scrape(base);
    while (gaugeLines(back.text).length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      back = await scrape(base);
    }
    expect(gaugeLines(back.text)).toHaveLength(2);
    expect(sampleValue(back.samples, 'purerank_outbox_pending_events')).toBe(0);
  }, 60_000);

  let otherListening: string | null = null;
  const otherBase = async () => {
    otherListening ??= await other.app.listen({ port: 0, host: '127.0.0.1' });
    return otherListening;
  };
});
