import type { Account } from '../accounts/model.ts';
import { planAllows } from '../accounts/plans.ts';
import { type Clock, DAY_MS, HOUR_MS, isoTime } from '../clock.ts';
import { DomainError, invalidParameter } from '../errors.ts';
import { isLive } from '../keys/account-keys.ts';
import type { Principal, StoredAccountKey } from '../keys/model.ts';
import type { AccountStore, KeyStore } from '../ports.ts';
import type { RateLimiter, RateLimitPolicy, RateLimitScope } from '../ratelimit/model.ts';
import type { UsageNow, UsagePoint, UsageSeries, UsageService } from './model.ts';
import type { UsagePending, UsageRow, UsageStore } from './ports.ts';
import { USAGE_RETENTION_DAYS } from './usage-meter.ts';

/** The hourly chart's longest span: 7 days. */
export const USAGE_HOURS_MAX = 7 * 24;
/** The daily chart's longest span: what is kept. */
export const USAGE_DAYS_MAX = USAGE_RETENTION_DAYS;

const SCOPES: readonly RateLimitScope[] = ['a', 'b'];

export interface UsageDeps {
  accounts: Pick<AccountStore, 'findById'>;
  keys: Pick<KeyStore, 'listAccountKeys'>;
  store: Pick<UsageStore, 'hourly' | 'daily'>;
  /** Counted here and not flushed yet, so a request shows at once. */
  pending?: UsagePending;
  /** "Now" comes from the limiter itself: a peek, not counted. */
  limiter: Pick<RateLimiter, 'peek'>;
  /**
   * Each variant's policy per caller: the very functions its guard uses (http/variant-{a,b}), so the
   * limits (plan defaults, a custom account's own) are stated once.
   */
  policies: Record<RateLimitScope, (principal: Principal) => RateLimitPolicy>;
  clock: Clock;
}

/**
 * An account's usage (the dashboard): per key and variant, where it stands now against its limit
 * (Variant A: the UTC hour; Variant B: the rolling 24 h) and requests per hour or per UTC day, 429s
 * apart, zero-filled. Series cover each live key in each variant its plan grants, and any other
 * key (revoked, expired) that was used in the span.
 */
export class Usage implements UsageService {
  constructor(private readonly deps: UsageDeps) {}

  async current(accountId: number): Promise<UsageNow[]> {
    const account = await this.account(accountId);
    const now = this.deps.clock.now();
    const keys = (await this.deps.keys.listAccountKeys(accountId)).filter((k) => isLive(k, now));
    const asks: Promise<UsageNow>[] = [];
    for (const key of keys) {
      for (const scope of grantedScopes(account)) {
        const policy = this.deps.policies[scope](principalOf(account, key));
        asks.push(
          this.deps.limiter.peek(key.id, scope, policy).then((d) => ({
            keyId: key.id,
            scope,
            used: Math.max(0, d.limit - d.remaining),
            limit: d.limit,
            resetsAt: isoTime(d.resetAtMs),
          })),
        );
      }
    }
    return Promise.all(asks);
  }

  async hourly(accountId: number, hours: number): Promise<UsageSeries[]> {
    checkSpan('hours', hours, USAGE_HOURS_MAX);
    const account = await this.account(accountId);
    const keys = await this.deps.keys.listAccountKeys(accountId);
    const first = Math.floor(this.deps.clock.now() / HOUR_MS) - hours + 1;
    const stored = await this.deps.store.hourly(accountId, first);
    const counts = [...stored, ...this.pending(keys)].map((r) => ({ ...r, slot: r.hour }));
    return series(account, keys, counts, first, hours, HOUR_MS, this.deps.clock.now());
  }

  async daily(accountId: number, days: number): Promise<UsageSeries[]> {
    checkSpan('days', days, USAGE_DAYS_MAX);
    const account = await this.account(accountId);
    const keys = await this.deps.keys.listAccountKeys(accountId);
    const first = Math.floor(this.deps.clock.now() / DAY_MS) - days + 1;
    const stored = (await this.deps.store.daily(accountId, first)).map((r) => ({ ...r, slot: r.day }));
    const fresh = this.pending(keys).map((r) => ({ ...r, slot: Math.floor(r.hour / 24) }));
    return series(account, keys, [...stored, ...fresh], first, days, DAY_MS, this.deps.clock.now());
  }

  private async account(accountId: number): Promise<Account> {
    const account = Number.isSafeInteger(accountId) ? await this.deps.accounts.findById(accountId) : null;
    if (!account) throw new DomainError('not_found', 'The account does not exist.');
    return account;
  }

  private pending(keys: readonly StoredAccountKey[]): UsageRow[] {
    return this.deps.pending?.pending(new Set(keys.map((k) => k.id))) ?? [];
  }
}

/** The variants a plan may call: both need `read` (a free account has neither). */
const grantedScopes = (account: Account): readonly RateLimitScope[] =>
  planAllows(account.plan, 'read') ? SCOPES : [];

/** What a variant's policy function reads: the plan and the account's own limits. */
const principalOf = (account: Account, key: StoredAccountKey): Principal => ({
  keyId: key.id,
  accountId: account.id,
  accountName: account.name,
  plan: account.plan,
  rateLimitA: account.rateLimitA,
  rateLimitB: account.rateLimitB,
  expiresAtMs: key.expiresAt === null ? null : Date.parse(key.expiresAt),
});

function checkSpan(name: 'hours' | 'days', n: number, max: number): void {
  if (!(Number.isInteger(n) && n >= 1 && n <= max))
    throw invalidParameter(name, `must be a whole number from 1 to ${max}.`);
}

interface SlotCount {
  keyId: string;
  scope: RateLimitScope;
  /** Index of the hour or the day. */
  slot: number;
  requests: number;
  limited: number;
}

/** Zero-filled series of `length` slots from `first`, one per (key, variant) shown. */
function series(
  account: Account,
  keys: readonly StoredAccountKey[],
  counts: readonly SlotCount[],
  first: number,
  length: number,
  unitMs: number,
  nowMs: number,
): UsageSeries[] {
  const byKey = new Map<string, UsagePoint[]>();
  const points = (keyId: string, scope: RateLimitScope): UsagePoint[] => {
    const k = `${scope}:${keyId}`;
    let p = byKey.get(k);
    if (!p) {
      p = Array.from({ length }, (_, i) => ({ t: (first + i) * unitMs, requests: 0, limited: 0 }));
      byKey.set(k, p);
    }
    return p;
  };
  const scopes = grantedScopes(account);
  for (const key of keys) if (isLive(key, nowMs)) for (const scope of scopes) points(key.id, scope);
  for (const c of counts) {
    const i = c.slot - first;
    if (i < 0 || i >= length || (c.requests === 0 && c.limited === 0)) continue;
    const p = points(c.keyId, c.scope)[i]!;
    p.requests += c.requests;
    p.limited += c.limited;
  }
  const out: UsageSeries[] = [];
  for (const key of keys) {
    for (const scope of SCOPES) {
      const p = byKey.get(`${scope}:${key.id}`);
      // A refund written after its request's flush can only leave a sum below zero if that request
      // was never recorded (a full meter); a count is never negative.
      if (p)
        out.push({
          keyId: key.id,
          scope,
          points: p.map((x) => ({ ...x, requests: Math.max(0, x.requests) })),
        });
    }
  }
  return out;
}
