import { type Answer, type Client, json } from './http.ts';
import { KeyPool, type Scope } from './keys.ts';
import type { Receiver } from './receiver.ts';

/**
 * Everything the load needs from the instance, made through its operator API (/admin/v1) so that the
 * same steps work on the service the soak starts and on one already running: enterprise accounts and
 * their keys, vendors claimed by the account whose endpoints receive webhooks, the endpoints, and
 * what the requests name (vendor slugs and names, peptides, batch ids), read from the public API.
 * `restore` undoes what would otherwise stay on a running instance (claims, overrides, endpoints).
 */
export interface World {
  stamp: string;
  readers: KeyPool;
  /** Keys of the account that owns the claimed vendors: its events and its webhook endpoints. */
  hooks: KeyPool;
  /** One key per buyer account: CoA uploads (each account may have 100 submissions awaiting review). */
  buyers: string[];
  vendors: { slug: string; name: string }[];
  /** Vendors the hooks account claimed for the run: operator writes go to them, webhooks come from them. */
  hookVendors: { slug: string; name: string }[];
  peptides: { slug: string; name: string; category: string }[];
  batchIds: string[];
  endpointIds: string[];
  /** Keys the soak created, by account. */
  created: number;
}

/** The Enterprise plan's quotas (config.ts): per key, Variant A per UTC hour, Variant B per rolling 24 h. */
export const ENTERPRISE_QUOTA: Record<Scope, number> = { a: 10_000, b: 1_000 };
/** Of a quota, the share the soak plans to use; the rest absorbs requests in flight and rounding. */
const USABLE = 0.9;
/** Keys per reader account (an account holds at most 100 live keys). */
const KEYS_PER_ACCOUNT = 90;
const BUYERS = 8;
const HOOK_VENDORS = 3;
const ENDPOINTS = 3;

export class Admin {
  constructor(
    private readonly http: Client,
    private readonly token: string,
  ) {}

  send(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, 'x-operator': 'soak' };
    if (body !== undefined) headers['content-type'] = contentType;
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    return this.http.send(method, `/admin/v1${path}`, headers, text);
  }

  async must<T>(method: string, path: string, body?: unknown): Promise<T> {
    return json<T>(await this.send(method, path, body), `${method} /admin/v1${path}`);
  }
}

async function inBatches<T>(n: number, parallel: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += parallel) {
    out.push(
      ...(await Promise.all(Array.from({ length: Math.min(parallel, n - i) }, (_, j) => make(i + j)))),
    );
  }
  return out;
}

export async function prepare(o: {
  http: Client;
  admin: Admin;
  receiver: Receiver;
  receiverPort: number;
  /** Requests per variant the read mix plans to send over the whole run (keys are made for them). */
  plannedReaders: Record<Scope, number>;
  plannedHooks: Record<Scope, number>;
  margin: number;
  extraKey: string | null;
}): Promise<World> {
  const { http, admin } = o;
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  let created = 0;
  let readerAccounts = 0;
  let readerRoom = 0;
  const account = async (name: string) => admin.must('POST', '/accounts', { name, plan: 'enterprise' });
  const key = async (name: string, label: string) => {
    created++;
    return (
      await admin.must<{ key: string }>('POST', `/accounts/${encodeURIComponent(name)}/keys`, { name: label })
    ).key;
  };
  // Reader keys live in accounts of KEYS_PER_ACCOUNT keys; more accounts are opened as the pool grows.
  const readerKeys = async (n: number): Promise<string[]> => {
    const out: string[] = [];
    while (out.length < n) {
      if (readerRoom === 0) {
        readerAccounts++;
        await account(`soak-${stamp}-readers-${readerAccounts}`);
        readerRoom = KEYS_PER_ACCOUNT;
      }
      const take = Math.min(readerRoom, n - out.length);
      readerRoom -= take;
      const acct = `soak-${stamp}-readers-${readerAccounts}`;
      out.push(...(await inBatches(take, 8, (i) => key(acct, `soak ${i}`))));
    }
    return out;
  };
  const need = (planned: Record<Scope, number>) =>
    Math.max(
      2,
      Math.ceil(planned.a / (ENTERPRISE_QUOTA.a * USABLE)),
      Math.ceil(planned.b / (ENTERPRISE_QUOTA.b * USABLE)),
    ) + 2;

  const readers = new KeyPool('reader', o.margin, ENTERPRISE_QUOTA, readerKeys);
  if (o.extraKey !== null)
    readers.add(o.extraKey, { a: Number.POSITIVE_INFINITY, b: Number.POSITIVE_INFINITY });
  for (const k of await readerKeys(need(o.plannedReaders))) readers.add(k);

  const hookAccount = `soak-${stamp}-hooks`;
  await account(hookAccount);
  const hooks = new KeyPool('hooks', o.margin, ENTERPRISE_QUOTA, (n) =>
    inBatches(n, 4, (i) => key(hookAccount, `soak more ${i}`)),
  );
  for (const k of await inBatches(Math.min(KEYS_PER_ACCOUNT, need(o.plannedHooks)), 8, (i) =>
    key(hookAccount, `soak ${i}`),
  ))
    hooks.add(k);

  const buyers = await inBatches(BUYERS, 4, async (i) => {
    const name = `soak-${stamp}-buyer-${i}`;
    await account(name);
    return key(name, 'soak uploads');
  });

  // What requests name, from the public API as a client would find it.
  const probeKey = await readers.take('b');
  const auth = { authorization: `Bearer ${probeKey}` };
  const list = json<{ data: { vendors: { slug: string; name: string }[] } }>(
    await http.send('GET', '/api/v1/vendors?limit=200', auth),
    'GET /api/v1/vendors',
  ).data.vendors;
  if (list.length < HOOK_VENDORS + 2)
    throw new Error(`the instance lists ${list.length} vendors; the soak needs ${HOOK_VENDORS + 2}`);
  const peptides = json<{ data: { slug: string; name: string; category: string }[] }>(
    await http.send('GET', '/v1/peptides', { authorization: `Bearer ${await readers.take('a')}` }),
    'GET /v1/peptides',
  ).data;
  const batchIds: string[] = [];
  for (const v of list.slice(0, 12)) {
    const detail = json<{ recent_coas?: { batch_id: string }[] }>(
      await http.send('GET', `/v1/vendors/${v.slug}`, { authorization: `Bearer ${await readers.take('a')}` }),
      `GET /v1/vendors/${v.slug}`,
    );
    for (const c of detail.recent_coas ?? []) batchIds.push(c.batch_id);
  }
  if (batchIds.length === 0) throw new Error('no batch ids found in the vendors’ recent CoAs');

  // Claim a few vendors (the bottom of the ranking, the least likely to matter to anyone) for the
  // hooks account, after the ones any other account owns are skipped: a running instance keeps its claims.
  const hookVendors: { slug: string; name: string }[] = [];
  for (const v of [...list].reverse()) {
    if (hookVendors.length === HOOK_VENDORS) break;
    const a = await admin.must<{ ownerAccount: string | null }>('GET', `/vendors/${v.slug}`);
    if (a.ownerAccount !== null) continue;
    await admin.must('PUT', `/vendors/${v.slug}/claim`, { account: hookAccount });
    hookVendors.push(v);
  }
  if (hookVendors.length < HOOK_VENDORS)
    throw new Error('not enough unclaimed vendors to claim for the webhooks');

  const endpointIds: string[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const path = `/hooks/${i}`;
    const ep = json<{ id: string; secret: string }>(
      await http.send(
        'POST',
        '/v1/webhooks',
        { authorization: `Bearer ${await hooks.take('a')}`, 'content-type': 'application/json' },
        JSON.stringify({
          url: `http://127.0.0.1:${o.receiverPort}${path}`,
          events: ['*'],
          description: `soak ${stamp}`,
        }),
      ),
      'POST /v1/webhooks',
    );
    o.receiver.expect(path, ep.secret);
    endpointIds.push(ep.id);
  }
  return {
    stamp,
    readers,
    hooks,
    buyers,
    vendors: list,
    hookVendors,
    peptides,
    batchIds: [...new Set(batchIds)],
    endpointIds,
    get created() {
      return created;
    },
  };
}

/** Releases the claims, clears overrides left set, deletes the endpoints. Errors are reported, not thrown. */
export async function restore(w: World, admin: Admin, http: Client): Promise<string[]> {
  const problems: string[] = [];
  const check = (a: Answer, what: string, ok: number[] = [200, 204]) => {
    if (!ok.includes(a.status)) problems.push(`${what}: HTTP ${a.status} ${a.body.slice(0, 200)}`);
  };
  const hookKey = await w.hooks.take('a');
  for (const id of w.endpointIds)
    check(
      await http.send('DELETE', `/v1/webhooks/${id}`, { authorization: `Bearer ${hookKey}` }),
      `delete endpoint ${id}`,
    );
  for (const v of w.hookVendors) {
    check(
      await admin.send('DELETE', `/vendors/${v.slug}/overrides/score?reason=soak%20ended`),
      `clear override on ${v.slug}`,
      [200, 404],
    );
    check(await admin.send('PUT', `/vendors/${v.slug}/claim`, { account: null }), `release ${v.slug}`);
  }
  return problems;
}
