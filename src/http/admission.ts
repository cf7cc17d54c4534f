import type { Access } from '../core/accounts/plans.ts';
import { grantsOf, planRequiredMessage } from '../core/accounts/plans.ts';
import type { Clock } from '../core/clock.ts';
import { isCanonicalBearer, type KeyAuthenticator } from '../core/keys/authenticate.ts';
import type { Principal } from '../core/keys/model.ts';
import type {
  RateLimitDecision,
  RateLimiter,
  RateLimitHit,
  RateLimitPolicy,
  RateLimitScope,
  RateLimitSlot,
} from '../core/ratelimit/model.ts';
import { DETACHED_CELL, type UsageCell, type UsageMeter } from '../core/usage/usage-meter.ts';
import { INVALID_KEY_MESSAGE, MISSING_KEY_MESSAGE } from './error-status.ts';

/** What a variant decides for itself: its quota per caller and the words of its 429. */
export interface ScopeRules {
  policyFor(principal: Principal): RateLimitPolicy;
  /** The 429 message, naming the limit. */
  limitMessage(policy: RateLimitPolicy, retryAfterS: number): string;
}

/** The rate-limit headers every answer past authentication carries (DESIGN.md §4). */
export interface RateHeaders {
  limitText: string;
  remaining: number;
  resetText: string;
}

/**
 * An admitted request: who, under which policy, and the numbers for its headers. On the hot path this
 * is the key's lane itself (one object per key and variant, updated in place): read it before the
 * next admission.
 */
export interface Admitted extends RateHeaders {
  readonly ok: true;
  readonly principal: Principal;
  readonly policy: RateLimitPolicy;
  /** The counted hit (null when peeking), so a 304 can be refunded. */
  hit(): RateLimitHit | null;
}

/** A refused request: the documented error code, its message, and the headers it still carries. */
export interface Refused {
  readonly ok: false;
  readonly code: 'invalid_api_key' | 'plan_required' | 'rate_limited';
  readonly message: string;
  /** Absent for an invalid key: an unknown caller learns nothing about any quota. */
  readonly rate: RateHeaders | null;
  /** Whole seconds, for `Retry-After` (rate_limited only). */
  readonly retryAfterS: number | null;
}

export type AdmissionResult = Admitted | Refused;

/**
 * Count the request (`count`), or only report the quota (`peek`: an unknown route under a
 * variant's prefix, where a valid key still learns its quota and nothing is counted), or count it
 * if admitted and otherwise leave the answer to the guard (`try`: the fast path, which answers only
 * admitted requests; the guard decides a refusal again, so its 429 is recorded there, once).
 */
export type AdmissionMode = 'count' | 'peek' | 'try';

/**
 * Everything about a valid key in one variant, kept per canonical Authorization header so a request
 * follows one pointer for all of it (decision 0011). The object is also the Admitted answer.
 */
class Lane implements Admitted {
  readonly ok = true as const;
  remaining = 0;
  /** The last reset sent, in seconds and as text: it changes once an hour (A) or as the oldest hit leaves (B). */
  resetSec = -1;
  resetText = '';
  readonly limitText: string;
  /** The plan's grants, kept here so a decision does not follow the principal (decision 0011). */
  readonly grants: ReadonlySet<Access>;
  /** The counted hit's time and seq (0 = none): the hit object is built only if it is refunded. */
  hitAtMs = 0;
  hitSeq = 0;
  /** When a rolled key stops working (epoch ms); 0 = never. Kept here for one comparison per request. */
  readonly expiresAtMs: number;
  /** The key's usage counters for the hour (core/usage/usage-meter.ts), replaced when the hour turns. */
  usage: UsageCell = DETACHED_CELL;
  constructor(
    readonly principal: Principal,
    readonly scope: RateLimitScope,
    readonly policy: RateLimitPolicy,
    public slot: RateLimitSlot | null,
  ) {
    this.limitText = String(policy.limit);
    this.grants = grantsOf(principal.plan);
    this.expiresAtMs = principal.expiresAtMs ?? 0;
  }
  /** Past a rolled key's expiry it is refused like a revoked one; a key without one costs one comparison. */
  expiredAt(clock: Clock): boolean {
    return this.expiresAtMs !== 0 && this.expiresAtMs <= clock.now();
  }
  setReset(resetAtMs: number): void {
    const sec = Math.ceil(resetAtMs / 1000);
    if (sec !== this.resetSec) {
      this.resetSec = sec;
      this.resetText = String(sec);
    }
  }
  hit(): RateLimitHit | null {
    if (this.hitSeq === 0) return null;
    return { keyId: this.principal.keyId, scope: this.scope, atMs: this.hitAtMs, seq: this.hitSeq };
  }
}

/**
 * Lanes kept per variant. Only canonical headers of valid keys get one (`Bearer <key>`, exactly 48
 * characters), so every entry has the same small size and the entry cap is a byte cap:
 * 50,000 × (48-byte key + ~200-byte lane) ≈ 12 MB per variant at most, whatever clients send.
 */
const LANES_MAX = 50_000;

/** What the decision needs besides the key cache, the limiter and the variants' rules. */
export interface AdmissionDeps {
  /** The time a rolled key's expiry is compared with (the limiter's clock). */
  clock: Clock;
  /** Usage per key, variant and hour: the decision records what it counts and refuses with 429. */
  meter: UsageMeter;
}

/**
 * The one admission decision, for both request paths (the Fastify guard and the fast path):
 * from (Authorization header, variant scope, the route's declared access) to admitted — principal,
 * quota numbers, the hit — or refused with `invalid_api_key`, `plan_required` or `rate_limited` and
 * the headers that go with it. Order matters for what is counted: 401, 403 and 429 are not counted.
 * Nothing a refused or unauthenticated request sends is remembered. Decision 0018.
 *
 * It is also where usage is recorded (issue [8]): a counted request and a 429 land in the key's
 * usage cell for the hour, in memory, here and only here, so both paths record each request once.
 */
export class AdmissionControl {
  private readonly lanes: Record<RateLimitScope, Map<string, Lane>> = { a: new Map(), b: new Map() };

  /**
   * Limiter decisions since start, per variant: requests the limiter counted (admitted) and 429s
   * given (limited), each once, as usage records them. Plain numbers the metrics read at scrape time.
   */
  readonly decisions: Record<RateLimitScope, { admitted: number; limited: number }> = {
    a: { admitted: 0, limited: 0 },
    b: { admitted: 0, limited: 0 },
  };

  /** The limiter decides in memory (slots and peeks without I/O): admissions of known keys are synchronous. */
  private readonly sync: boolean;
  private readonly clock: Clock;
  private readonly meter: UsageMeter;

  constructor(
    private readonly auth: KeyAuthenticator,
    private readonly limiter: RateLimiter,
    private readonly rules: Record<RateLimitScope, ScopeRules>,
    deps: AdmissionDeps,
  ) {
    this.sync = Boolean(limiter.slotSync && limiter.consumeSlotSync && limiter.peekSync);
    this.clock = deps.clock;
    this.meter = deps.meter;
  }

  /**
   * The decision when it needs no I/O — a known key (or an invalid one) and an in-memory limiter —
   * else undefined, and nothing was counted: the caller then uses admit(). The fast path answers
   * only what this decides.
   */
  admitSync(
    header: string | undefined,
    scope: RateLimitScope,
    access: Access,
    mode: AdmissionMode = 'count',
  ): AdmissionResult | undefined {
    if (!this.sync) return undefined;
    const lane = header === undefined ? undefined : this.lanes[scope].get(header);
    if (lane !== undefined) return this.decideSync(lane, access, mode);
    const auth = this.auth.authenticateCached(header);
    if (auth === undefined) return undefined;
    if (!auth.ok) return refusalOf(header);
    const fresh = this.newLane(scope, auth.principal);
    return this.keepIfAdmitted(header!, fresh, mode, this.decideSync(fresh, access, mode));
  }

  /**
   * The fast path's decision for a key this instance already knows: from memory when the limiter
   * decides in memory, else (Redis) a promise of the limiter's answer. Undefined when the key must
   * first be looked up in the store: the fast path leaves that to Fastify. Decision 0022.
   */
  admitKnown(
    header: string | undefined,
    scope: RateLimitScope,
    access: Access,
    mode: AdmissionMode,
  ): AdmissionResult | Promise<AdmissionResult> | undefined {
    if (this.sync) return this.admitSync(header, scope, access, mode);
    const lane = header === undefined ? undefined : this.lanes[scope].get(header);
    if (lane === undefined) return undefined;
    return this.decideLocal(lane, access, mode) ?? this.decideAsync(lane, access, mode);
  }

  /** The decision, looking the key up in the store or asking Redis when it has to. */
  admit(
    header: string | undefined,
    scope: RateLimitScope,
    access: Access,
    mode: AdmissionMode = 'count',
  ): AdmissionResult | Promise<AdmissionResult> {
    const now = this.admitSync(header, scope, access, mode);
    if (now !== undefined) return now;
    const known = header === undefined ? undefined : this.lanes[scope].get(header);
    if (known !== undefined)
      return this.decideLocal(known, access, mode) ?? this.decideAsync(known, access, mode);
    return this.auth.authenticate(header).then((auth) => {
      if (!auth.ok) return refusalOf(header);
      const fresh = this.newLane(scope, auth.principal);
      if (this.sync) return this.keepIfAdmitted(header!, fresh, mode, this.decideSync(fresh, access, mode));
      return this.decideAsync(fresh, access, mode).then((r) => this.keepIfAdmitted(header!, fresh, mode, r));
    });
  }

  /** Forget every key (the keys changed: a revocation, a new plan, a new limit). */
  invalidateKeys(): void {
    this.lanes.a.clear();
    this.lanes.b.clear();
  }

  /** Lanes held, per variant (for the tests that attack the bound). */
  get laneCount(): number {
    return this.lanes.a.size + this.lanes.b.size;
  }

  /** A lane for a valid key not seen under this header. */
  private newLane(scope: RateLimitScope, principal: Principal): Lane {
    const slot = this.sync ? this.limiter.slotSync!(principal.keyId, scope) : null;
    return new Lane(principal, scope, this.rules[scope].policyFor(principal), slot);
  }

  /**
   * A new lane is remembered only once a counted request was admitted, and only for the canonical
   * spelling of the header (decision 0018): a refused request, a peek or a case-and-spacing variant
   * of a key leaves nothing behind.
   */
  private keepIfAdmitted(
    header: string,
    lane: Lane,
    mode: AdmissionMode,
    result: AdmissionResult,
  ): AdmissionResult {
    if (result.ok && mode !== 'peek' && isCanonicalBearer(header)) {
      const known = this.lanes[lane.scope];
      if (known.size >= LANES_MAX) known.clear();
      known.set(header, lane);
    }
    return result;
  }

  /** Only when this.sync: the limiter's synchronous forms exist. */
  private decideSync(lane: Lane, access: Access, mode: AdmissionMode): AdmissionResult {
    if (lane.expiredAt(this.clock)) return INVALID_KEY;
    const limiter = this.limiter;
    const { keyId } = lane.principal;
    if (!lane.grants.has(access))
      return this.refusePlan(lane, access, limiter.peekSync!(keyId, lane.scope, lane.policy));
    if (mode === 'peek') return this.peeked(lane, limiter.peekSync!(keyId, lane.scope, lane.policy));
    if (lane.slot === null || lane.slot.detached) lane.slot = limiter.slotSync!(keyId, lane.scope);
    const outcome = limiter.consumeSlotSync!(lane.slot, lane.policy);
    if (outcome === null)
      return this.refuseRate(lane, limiter.peekSync!(keyId, lane.scope, lane.policy), mode === 'count');
    return this.admittedNow(lane, outcome.remaining, outcome.resetAtMs, outcome.atMs, outcome.seq);
  }

  /**
   * An admission the limiter can make without I/O although it is not an in-memory one (the Redis
   * limiter's leases, decision 0022), answered as synchronously as decideSync's; undefined when it
   * cannot (then decideAsync asks it). Refusals, peeks and plan checks are always decideAsync's.
   */
  private decideLocal(lane: Lane, access: Access, mode: AdmissionMode): AdmissionResult | undefined {
    const limiter = this.limiter;
    if (limiter.consumeLocal === undefined || mode === 'peek' || !lane.grants.has(access)) return undefined;
    if (lane.expiredAt(this.clock)) return INVALID_KEY;
    const d = limiter.consumeLocal(lane.principal.keyId, lane.scope, lane.policy);
    if (d === null || d.hit === undefined) return undefined;
    return this.admittedNow(lane, d.remaining, d.resetAtMs, d.hit.atMs, d.hit.seq);
  }

  /**
   * The kept lane as a synchronous admission's answer: safe to share, as it is read before any other
   * request of the key is decided.
   */
  private admittedNow(lane: Lane, remaining: number, resetAtMs: number, at: number, seq: number): Lane {
    lane.remaining = remaining;
    lane.setReset(resetAtMs);
    lane.hitAtMs = at;
    lane.hitSeq = seq;
    // Usage: one comparison, an increment and a store; a new cell only when the hour turns.
    let cell = lane.usage;
    if (at >= cell.endMs) cell = lane.usage = this.meter.cell(lane.principal.keyId, lane.scope, at);
    cell.requests++;
    cell.lastAt = at;
    this.decisions[lane.scope].admitted++;
    return lane;
  }

  private async decideAsync(lane: Lane, access: Access, mode: AdmissionMode): Promise<AdmissionResult> {
    if (lane.expiredAt(this.clock)) return INVALID_KEY;
    const { keyId } = lane.principal;
    if (!lane.grants.has(access))
      return this.refusePlan(lane, access, await this.limiter.peek(keyId, lane.scope, lane.policy));
    if (mode === 'peek') return this.peeked(lane, await this.limiter.peek(keyId, lane.scope, lane.policy));
    const d = await this.limiter.consume(keyId, lane.scope, lane.policy);
    if (!d.allowed) return this.refuseRate(lane, d, mode === 'count');
    this.meter.counted(keyId, lane.scope, d.hit?.atMs ?? this.clock.now());
    this.decisions[lane.scope].admitted++;
    // A lane is shared by concurrent requests of one key; an asynchronous limiter's answers get their own.
    const admitted = new Lane(lane.principal, lane.scope, lane.policy, lane.slot);
    admitted.remaining = d.remaining;
    admitted.setReset(d.resetAtMs);
    if (d.hit) {
      admitted.hitAtMs = d.hit.atMs;
      admitted.hitSeq = d.hit.seq;
    }
    return admitted;
  }

  /** Peeked numbers are the request's own: a fresh object, so the kept lane's stay as they were. */
  private peeked(lane: Lane, d: RateLimitDecision): Admitted {
    const view = new Lane(lane.principal, lane.scope, lane.policy, null);
    view.remaining = d.remaining;
    view.setReset(d.resetAtMs);
    return view;
  }

  private refusePlan(lane: Lane, access: Access, d: RateLimitDecision): Refused {
    return {
      ok: false,
      code: 'plan_required',
      message: planRequiredMessage(access),
      rate: rateOf(lane, d),
      retryAfterS: null,
    };
  }

  /** `record`: the refusal is final (the guard's), so its 429 is recorded now, and only then. */
  private refuseRate(lane: Lane, d: RateLimitDecision, record: boolean): Refused {
    if (record) {
      this.meter.limited(lane.principal.keyId, lane.scope, this.clock.now());
      this.decisions[lane.scope].limited++;
    }
    const retryAfterS = Math.max(1, Math.ceil(d.retryAfterMs / 1000));
    return {
      ok: false,
      code: 'rate_limited',
      message: this.rules[lane.scope].limitMessage(lane.policy, retryAfterS),
      rate: rateOf(lane, d),
      retryAfterS,
    };
  }
}

const rateOf = (lane: Lane, d: RateLimitDecision): RateHeaders => ({
  limitText: lane.limitText,
  remaining: d.remaining,
  resetText: String(Math.ceil(d.resetAtMs / 1000)),
});

const INVALID_KEY: Refused = {
  ok: false,
  code: 'invalid_api_key',
  message: INVALID_KEY_MESSAGE,
  rate: null,
  retryAfterS: null,
};

/** The same refusal when no Authorization header was sent at all (it says so). */
const MISSING_KEY: Refused = { ...INVALID_KEY, message: MISSING_KEY_MESSAGE };

/** One of two constant refusals: the decision allocates nothing for an invalid key. */
const refusalOf = (header: string | undefined): Refused => (header === undefined ? MISSING_KEY : INVALID_KEY);
