import { setTimeout as sleep } from 'node:timers/promises';
import { mulberry32 } from '../../src/seed/prng.ts';
import { distinctFacts, renderCoa, TEMPLATES } from '../../test/support/coa/index.ts';
import { multipartBody } from '../lib/coa-fixtures.ts';
import type { Answer, Client } from './http.ts';
import type { KeyPool, Scope } from './keys.ts';
import type { Recorder } from './recorder.ts';
import type { Admin, World } from './setup.ts';

/**
 * The load: read clients on every public read endpoint of both variants (a weighted mix, paced to a
 * target rate), a lane of CoA uploads (distinct generated PDFs, each followed by a read of its
 * verification), and a lane of operator writes (overrides set and cleared, small imports, the
 * uploads' submissions rejected, the review queue read), which also make the webhook events.
 * Everything it asks for must succeed: any other answer is an error.
 */
interface ReadKind {
  kind: string;
  weight: number;
  scope: Scope;
  pool: 'readers' | 'hooks';
  path: (w: World, rnd: () => number) => string;
}

const pick = <T>(xs: readonly T[], rnd: () => number): T => xs[Math.floor(rnd() * xs.length)]!;
const SEARCH_TERMS = [
  'bpc',
  'sema',
  'tb-500',
  'ghk',
  'labs',
  'peptide',
  'research',
  'tirz',
  'ipamorelin',
  'bio',
];

export const READ_MIX: readonly ReadKind[] = [
  {
    kind: 'B vendors',
    weight: 4,
    scope: 'b',
    pool: 'readers',
    path: (_w, r) => `/api/v1/vendors?limit=${pick([10, 20, 50], r)}&offset=${pick([0, 10, 20], r)}`,
  },
  {
    kind: 'B vendor',
    weight: 4,
    scope: 'b',
    pool: 'readers',
    path: (w, r) => `/api/v1/vendors/${pick(w.vendors, r).slug}`,
  },
  {
    kind: 'B batch',
    weight: 3,
    scope: 'b',
    pool: 'readers',
    path: (w, r) => `/api/v1/batches/${encodeURIComponent(pick(w.batchIds, r))}`,
  },
  {
    kind: 'B prices',
    weight: 3,
    scope: 'b',
    pool: 'readers',
    path: (w, r) => `/api/v1/peptides/${pick(w.peptides, r).slug}/prices`,
  },
  {
    kind: 'A vendors',
    weight: 4,
    scope: 'a',
    pool: 'readers',
    path: (_w, r) => `/v1/vendors?per_page=${pick([10, 20, 50], r)}&page=${pick([1, 2], r)}`,
  },
  {
    kind: 'A vendor',
    weight: 4,
    scope: 'a',
    pool: 'readers',
    path: (w, r) => `/v1/vendors/${pick(w.vendors, r).slug}`,
  },
  {
    kind: 'A peptides',
    weight: 2,
    scope: 'a',
    pool: 'readers',
    path: (w, r) => (r() < 0.5 ? '/v1/peptides' : `/v1/peptides?category=${pick(w.peptides, r).category}`),
  },
  {
    kind: 'A peptide vendors',
    weight: 3,
    scope: 'a',
    pool: 'readers',
    path: (w, r) => `/v1/peptides/${pick(w.peptides, r).slug}/vendors`,
  },
  {
    kind: 'A search',
    weight: 3,
    scope: 'a',
    pool: 'readers',
    path: (_w, r) => `/v1/search?q=${pick(SEARCH_TERMS, r)}`,
  },
  {
    kind: 'A events',
    weight: 2,
    scope: 'a',
    pool: 'hooks',
    path: (w, r) => (r() < 0.5 ? '/v1/events' : `/v1/events?vendor=${pick(w.hookVendors, r).slug}`),
  },
  { kind: 'A webhooks', weight: 1, scope: 'a', pool: 'hooks', path: () => '/v1/webhooks' },
];

/** Of the read mix's requests, how many go to each pool and variant (for planning keys). */
export function mixShares(): { readers: Record<Scope, number>; hooks: Record<Scope, number> } {
  const total = READ_MIX.reduce((s, k) => s + k.weight, 0);
  const out = { readers: { a: 0, b: 0 }, hooks: { a: 0, b: 0 } };
  for (const k of READ_MIX) out[k.pool][k.scope] += k.weight / total;
  return out;
}

export interface Lanes {
  stopAt: number;
  http: Client;
  admin: Admin;
  world: World;
  rec: Recorder;
}

/** Records an answer: `expected` statuses are successes, anything else an error. */
function judge(rec: Recorder, kind: string, a: Answer, expected: readonly number[] = [200]): boolean {
  if (expected.includes(a.status)) {
    rec.ok(kind, a.ms);
    return true;
  }
  rec.error(kind, a.status, a.ms, a.body);
  return false;
}

/** `clients` loops sharing one schedule of `rps` starts per second (a slow answer delays its client only). */
export async function readClients(l: Lanes, clients: number, rps: number): Promise<void> {
  const total = READ_MIX.reduce((s, k) => s + k.weight, 0);
  const interval = 1000 / rps;
  let nextAt = performance.now();
  const lane = async (c: number) => {
    const rnd = mulberry32(0x50a4 + c);
    while (Date.now() < l.stopAt) {
      // Take the next start; a schedule fallen behind (the service was slow) is not made up in a burst.
      const now = performance.now();
      nextAt = Math.max(nextAt + interval, now - 1000);
      if (nextAt > now) await sleep(nextAt - now);
      let x = rnd() * total;
      let k = READ_MIX[0]!;
      for (const m of READ_MIX) {
        x -= m.weight;
        if (x < 0) {
          k = m;
          break;
        }
      }
      const pool: KeyPool = k.pool === 'readers' ? l.world.readers : l.world.hooks;
      try {
        const key = await pool.take(k.scope);
        const a = await l.http.send('GET', k.path(l.world, rnd), { authorization: `Bearer ${key}` });
        pool.note(key, k.scope, a.headers);
        judge(l.rec, k.kind, a);
      } catch (e) {
        // No key left (the pool could not grow): an error of the run, and the client goes on.
        l.rec.error(k.kind, 0, 0, (e as Error).message);
        await sleep(1000);
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => lane(c)));
}

/** Submissions the uploads opened, for the operator lane to decide (bounded: it drains faster). */
const toDecide: { vendor: string; batch: string }[] = [];
const MAX_TO_DECIDE = 10_000;

/** `perSecond` uploads of distinct CoAs (a new batch of a listed vendor each: a submission for review). */
export async function coaLane(l: Lanes, perSecond: number): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  if (perSecond <= 0) return statuses;
  const rnd = mulberry32(0xc0a5);
  const templates = Object.values(TEMPLATES);
  const inFlight = new Set<Promise<void>>();
  const upload = async (i: number) => {
    // One in four goes to a claimed vendor, whose decision then reaches the webhook endpoints.
    const v = i % 4 === 0 ? pick(l.world.hookVendors, rnd) : pick(l.world.vendors, rnd);
    const p = pick(l.world.peptides, rnd);
    const batch = `SK${l.world.stamp.replace('-', '')}-${i}`;
    const pdf = (
      await renderCoa(
        templates[i % templates.length]!,
        distinctFacts(i, {
          client: v.name,
          compound: p.name,
          batch,
          testDate: new Date(Date.now() - (3 + (i % 30)) * 86_400_000),
        }),
      )
    ).bytes;
    const { body, contentType } = multipartBody({ peptide: p.slug, vendor: v.slug, batch_id: batch }, pdf);
    const key = l.world.buyers[i % l.world.buyers.length]!;
    const a = await l.http.send(
      'POST',
      '/v1/coa/verify',
      { authorization: `Bearer ${key}`, 'content-type': contentType },
      body,
    );
    if (!judge(l.rec, 'CoA upload', a)) return;
    const v1 = JSON.parse(a.body) as { verification_id: string; status: string };
    statuses[v1.status] = (statuses[v1.status] ?? 0) + 1;
    if (v1.status === 'pending_review' && toDecide.length < MAX_TO_DECIDE)
      toDecide.push({ vendor: v.slug, batch });
    judge(
      l.rec,
      'CoA result',
      await l.http.send('GET', `/v1/coa/verifications/${v1.verification_id}`, {
        authorization: `Bearer ${key}`,
      }),
    );
  };
  const interval = 1000 / perSecond;
  let i = 0;
  let nextAt = performance.now();
  while (Date.now() < l.stopAt) {
    const now = performance.now();
    nextAt = Math.max(nextAt + interval, now - 1000);
    if (nextAt > now) await sleep(nextAt - now);
    // At most 8 at once: a service slower than the rate asked shows in latency, not in a pile-up here.
    if (inFlight.size >= 8) await Promise.race(inFlight);
    const p = upload(i++).catch((e: unknown) => l.rec.error('CoA upload', 0, 0, (e as Error).message));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }
  await Promise.all(inFlight);
  return statuses;
}

/**
 * One operator write every `everyMs`, in turn: a score override set on a claimed vendor, the
 * uploads' submissions rejected, a small import (a price and a review of a claimed vendor), the
 * submissions again, the override cleared, the review queue read, the submissions again.
 */
export async function adminLane(l: Lanes, everyMs: number): Promise<void> {
  const rnd = mulberry32(0xad717);
  const set = new Set<string>();
  let step = 0;
  while (Date.now() < l.stopAt) {
    const started = performance.now();
    const v = l.world.hookVendors[step % l.world.hookVendors.length]!;
    try {
      switch (step % 8) {
        case 0: {
          const value = 40 + Math.floor(rnd() * 56);
          const a = await l.admin.send('PUT', `/vendors/${v.slug}/overrides/score`, {
            value,
            reason: 'soak',
          });
          if (judge(l.rec, 'op override', a)) set.add(v.slug);
          break;
        }
        case 2: {
          const n = step / 8;
          const lines = [
            {
              type: 'price',
              vendorSlug: v.slug,
              peptideSlug: pick(l.world.peptides, rnd).slug,
              vialMg: 5,
              source: 'baseline',
              totalUsd: 30 + Math.round(rnd() * 2000) / 100,
              inStock: true,
              updatedAt: new Date().toISOString(),
            },
            {
              type: 'review',
              id: `soak-${l.world.stamp}-${n}`,
              vendorSlug: v.slug,
              rating: 1 + Math.floor(rnd() * 5),
              title: 'Soak review',
              body: 'Arrived sealed, with a CoA for the batch.',
              author: 'soak',
              createdAt: new Date().toISOString(),
            },
          ];
          const body = `${lines.map((x) => JSON.stringify(x)).join('\n')}\n`;
          judge(l.rec, 'op import', await l.admin.send('POST', '/import', body, 'application/x-ndjson'));
          break;
        }
        case 4: {
          for (const slug of set) {
            judge(
              l.rec,
              'op override',
              await l.admin.send('DELETE', `/vendors/${slug}/overrides/score?reason=soak`),
            );
          }
          set.clear();
          break;
        }
        case 6:
          judge(l.rec, 'op queue', await l.admin.send('GET', '/batches/pending?limit=20'));
          break;
        default: {
          // Reject what the uploads opened so far (up to 40), so that no buyer reaches its cap of
          // open submissions: a 429 there would be an error of the soak's own making.
          for (const s of toDecide.splice(0, 40)) {
            const a = await l.admin.send(
              'POST',
              `/vendors/${s.vendor}/batches/${encodeURIComponent(s.batch)}/reject`,
              { reason: 'soak' },
            );
            judge(l.rec, 'op reject', a);
          }
        }
      }
    } catch (e) {
      l.rec.error('op', 0, 0, (e as Error).message);
    }
    step++;
    const wait = everyMs - (performance.now() - started);
    if (wait > 0) await sleep(Math.min(wait, Math.max(0, l.stopAt - Date.now())));
  }
}
