import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import { hashKey } from '../../src/core/keys/api-key.ts';
import { createKey } from '../../src/core/keys/manage-keys.ts';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import { BenchError, type Spawned } from './procs.ts';
import type { KeyPolicy } from './scenarios.ts';

/**
 * API keys for load runs. Every request of a run uses the next key round-robin, so a run of R
 * requests over n keys spends ceil(R / n) of each key's quota. Quotas are real (the enterprise
 * path with auth and rate limiting is what is measured) and persist in the store for a whole
 * window, so across runs this module keeps a ledger: what the store says each key has spent, plus
 * what this process has spent since. A key is only planned up to 90% of its limit.
 */

export interface BenchKey {
  key: string;
  id: string;
}

/** Of each key's limit, the share the bench plans to use (the rest absorbs rounding and in-flight requests). */
const USABLE_SHARE = 0.9;

export class KeySet {
  /** Requests already counted against each key in the current window. */
  private readonly used: Map<string, number>;

  constructor(
    readonly policy: KeyPolicy,
    readonly keys: readonly BenchKey[],
    used: Map<string, number>,
  ) {
    this.used = new Map(keys.map((k) => [k.id, used.get(k.id) ?? 0]));
  }

  get capacity(): number {
    return Math.floor(this.policy.limit * USABLE_SHARE);
  }

  /** Requests one run may send without any key passing its usable share. */
  room(): number {
    let least = Number.POSITIVE_INFINITY;
    for (const u of this.used.values()) least = Math.min(least, this.capacity - u);
    return Math.max(0, least - 1) * this.keys.length;
  }

  /** Records a run that sent (at most) `requests` requests, rotated over all keys. */
  spend(requests: number): void {
    const each = Math.ceil(requests / this.keys.length);
    for (const [id, u] of this.used) this.used.set(id, u + each);
  }

  /** Throws when a run of up to `requests` could push a key past its usable share. */
  assertRoom(requests: number, what: string): void {
    if (requests > this.room()) {
      throw new BenchError(
        `not enough rate-limit budget for ${what}: up to ${requests} requests but the ${this.keys.length} ` +
          `keys have room for ${this.room()}. Raise PLANNING_RPS in bench/run.ts or delete .bench/keys.txt.`,
      );
    }
  }
}

/** Requests already counted per key id in the policy's current window, from the store's rate-limit table. */
function usedInWindow(
  rows: readonly { keyId: string; scope: string; second: number; count: number }[],
  policy: KeyPolicy,
  nowMs: number,
): Map<string, number> {
  const since =
    policy.window === 'rolling-24h'
      ? Math.floor(nowMs / 1000) - 86_400
      : Math.floor(nowMs / 3_600_000) * 3600;
  const used = new Map<string, number>();
  for (const r of rows) {
    if (r.scope !== policy.scope || r.second < since) continue;
    used.set(r.keyId, (used.get(r.keyId) ?? 0) + r.count);
  }
  return used;
}

/**
 * The smallest set of keys, at least `minKeys` when there are that many, that can absorb `demand`
 * requests spread evenly; null when the keys cannot.
 */
function choose(cands: { k: BenchKey; left: number }[], demand: number, minKeys: number): BenchKey[] | null {
  const sorted = [...cands].sort((x, y) => y.left - x.left);
  for (let n = Math.max(1, Math.min(minKeys, sorted.length)); n <= sorted.length; n++) {
    // +1 for rounding, +1 for the priming request every key gets before the runs.
    if (sorted[n - 1]!.left >= Math.ceil(demand / n) + 2) return sorted.slice(0, n).map((c) => c.k);
  }
  return null;
}

export interface KeyDemand {
  policy: KeyPolicy;
  /** Upper bound on the requests all runs under this policy will send. */
  requests: number;
}

/**
 * Loads `.bench/keys.txt`, drops keys the store no longer knows (a re-seed, a revocation), creates
 * enterprise keys for `account` until every demand can be met with at least `minKeys` keys, saves
 * the file again and returns one KeySet per rate-limit scope.
 */
export async function prepareKeys(opts: {
  databaseUrl: string;
  keysFile: string;
  account: string;
  demands: readonly KeyDemand[];
  minKeys: number;
  log: (line: string) => void;
}): Promise<Map<KeyPolicy['scope'], KeySet>> {
  const store = await openStore(parseDatabaseUrl(opts.databaseUrl));
  try {
    const account = await store.accounts.findByName(opts.account);
    if (!account) {
      await createAccount(store, { name: opts.account, plan: 'enterprise' });
      opts.log(`created account '${opts.account}' (enterprise)`);
    } else if (account.plan !== 'enterprise' || account.rateLimitA !== null || account.rateLimitB !== null) {
      throw new BenchError(
        `account '${opts.account}' exists but is not a plain enterprise account (plan ${account.plan}); ` +
          'the bench measures the enterprise path. Use a fresh database (--fresh).',
      );
    }

    const listed = existsSync(opts.keysFile)
      ? readFileSync(opts.keysFile, 'utf8')
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== '')
      : [];
    const keys: BenchKey[] = [];
    for (const key of new Set(listed)) {
      const found = await store.keys.findByHash(hashKey(key));
      if (found && !found.revoked && found.accountName === opts.account && found.plan === 'enterprise') {
        keys.push({ key, id: found.keyId });
      }
    }
    if (listed.length > 0 && keys.length < listed.length) {
      opts.log(`${listed.length - keys.length} of ${listed.length} saved keys are no longer valid; dropped`);
    }

    const create = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        const { key, info } = await createKey(store, opts.account, 'bench');
        keys.push({ key, id: info.id });
      }
      opts.log(`created ${n} enterprise keys (now ${keys.length})`);
      writeFileSync(opts.keysFile, `${keys.map((k) => k.key).join('\n')}\n`);
    };
    if (keys.length < opts.minKeys) await create(opts.minKeys - keys.length);

    const nowMs = Date.now();
    const rows = await store.rateLimits.loadHits(Math.floor(nowMs / 1000) - 86_400);
    const sets = new Map<KeyPolicy['scope'], KeySet>();
    for (const d of opts.demands) {
      const used = usedInWindow(rows, d.policy, nowMs);
      const capacity = Math.floor(d.policy.limit * USABLE_SHARE);
      const candidates = () => keys.map((k) => ({ k, left: capacity - (used.get(k.id) ?? 0) }));
      let chosen = choose(candidates(), d.requests, opts.minKeys);
      if (!chosen) {
        // Fresh keys alone can carry the demand: n keys with `capacity` left each.
        await create(Math.max(opts.minKeys, Math.ceil(d.requests / (capacity - 3))));
        chosen = choose(candidates(), d.requests, opts.minKeys);
        if (!chosen) throw new BenchError('internal: fresh keys could not carry the demand');
      }
      const set = new KeySet(d.policy, chosen, used);
      sets.set(d.policy.scope, set);
      const spent = chosen.reduce((s, k) => s + (used.get(k.id) ?? 0), 0);
      opts.log(
        `scope ${d.policy.scope}: ${chosen.length} keys (of ${keys.length}), ${spent} requests already counted ` +
          `in the window, room for ${set.room()} (planned ≤ ${d.requests})`,
      );
    }
    writeFileSync(opts.keysFile, `${keys.map((k) => k.key).join('\n')}\n`);
    return sets;
  } finally {
    await store.close();
  }
}

/** One request per key, `parallel` at a time; every answer must be 200. */
export async function primeKeys(
  service: Spawned,
  set: KeySet,
  path: string,
  auth: { header: string; prefix: string },
  parallel = 32,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < set.keys.length) {
      const key = set.keys[next++]!.key;
      const res = await fetch(`http://127.0.0.1:${service.port}${path}`, {
        headers: { [auth.header]: auth.prefix + key },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new BenchError(`priming key ${key.slice(0, 13)}…: HTTP ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}
