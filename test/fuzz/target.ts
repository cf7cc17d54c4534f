import { revokeKey } from '../../src/core/keys/manage-keys.ts';
import { demoDataset } from '../../src/seed/demo-dataset.ts';
import { seedDemo } from '../../src/seed/seed-demo.ts';
import { ADMIN_TOKEN, createTestContext, type TestContext } from '../support/context.ts';
import type { Dialect } from '../support/databases.ts';
import { send } from './raw-http.ts';

/** Keys of every kind a client can hold, and values that exist in the demo dataset. */
export interface FuzzWorld {
  /** Custom plan with limits no run reaches: most requests use it so that 429 stays rare. */
  custom: string;
  free: string;
  pro: string;
  enterprise: string;
  revoked: string;
  admin: string;
  /** Real slugs, ids and names, so that generated requests also reach the 200 paths. */
  vendors: string[];
  peptides: string[];
  categories: string[];
  batchIds: string[];
  reviewIds: string[];
  accounts: string[];
  labs: string[];
}

export interface FuzzTarget {
  ctx: TestContext;
  port: number;
  world: FuzzWorld;
  /** The OpenAPI documents as the running app serves them, by prefix. */
  documents: Record<string, Record<string, unknown>>;
  close(): Promise<void>;
}

/** Accounts whose keys drive the run; generated admin requests never name them. */
export const FUZZ_ACCOUNTS = ['fuzz-custom', 'fuzz-free', 'fuzz-pro', 'fuzz-enterprise', 'fuzz-revoked'];
export const PREFIXES = ['/v1', '/api/v1', '/admin/v1'] as const;

/**
 * A real server on a real port, built as the HTTP tests build it (test/support/context.ts), with the
 * operator API on and the demo dataset (SQLite unless asked; `npm run fuzz -- --dialect postgres`).
 */
export async function startTarget(dialect: Dialect = 'sqlite'): Promise<FuzzTarget> {
  const ctx = await createTestContext(dialect);
  try {
    await seedDemo({ store: ctx.container.store.imports, clock: ctx.clock });
    await ctx.container.freshness.refresh();
    // The largest custom limits there are (decision 0006).
    const huge = { rateLimitA: 10_000_000, rateLimitB: 1_000_000 };
    const revoked = await ctx.keyFor('pro', 'fuzz-revoked');
    await revokeKey(ctx.container.store, revoked);
    const world: FuzzWorld = {
      custom: await ctx.keyFor('custom', 'fuzz-custom', huge),
      free: await ctx.keyFor('free', 'fuzz-free'),
      pro: await ctx.keyFor('pro', 'fuzz-pro'),
      enterprise: await ctx.keyFor('enterprise', 'fuzz-enterprise'),
      revoked,
      admin: ADMIN_TOKEN,
      ...demoValues(ctx.clock.now()),
    };
    await ctx.container.freshness.refresh();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address();
    if (!address || typeof address !== 'object') throw new Error('the server did not listen on a port');
    const documents: FuzzTarget['documents'] = {};
    for (const prefix of PREFIXES) {
      const res = await send(address.port, { method: 'GET', target: `${prefix}/openapi.json`, headers: [] });
      if (res.status !== 200) throw new Error(`GET ${prefix}/openapi.json answered ${res.status}`);
      documents[prefix] = JSON.parse(Buffer.from(res.body, 'latin1').toString('utf8'));
    }
    return { ctx, port: address.port, world, documents, close: () => ctx.close() };
  } catch (err) {
    await ctx.close();
    throw err;
  }
}

function demoValues(
  now: number,
): Omit<FuzzWorld, 'custom' | 'free' | 'pro' | 'enterprise' | 'revoked' | 'admin'> {
  const d = demoDataset(now);
  const uniq = (xs: (string | undefined | null)[]) => [...new Set(xs.filter((x): x is string => !!x))];
  return {
    vendors: uniq(d.vendor.map((v) => v.slug)),
    peptides: uniq(d.peptide.map((p) => p.slug)),
    categories: uniq(d.peptide.map((p) => p.category)),
    batchIds: uniq(d.batch.map((b) => b.batchId)),
    reviewIds: uniq(d.review.map((r) => r.id)),
    accounts: uniq(d.account.map((a) => a.name)),
    labs: uniq(d.lab.map((l) => l.slug)),
  };
}
