import type { KeyStore } from '../ports.ts';
import { hashKey, isWellFormedKey, KEY_LENGTH } from './api-key.ts';
import type { Principal } from './model.ts';

export type AuthFailure = 'missing' | 'malformed' | 'unknown' | 'revoked';
export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: AuthFailure };

const BEARER = /^Bearer +(\S+) *$/i;
const CANONICAL_BEARER = 'Bearer prk_live_';
const CANONICAL_LENGTH = 'Bearer '.length + KEY_LENGTH;

/**
 * `Bearer <well-formed key>` spelled exactly so (one space, that case): the one spelling whose
 * answer may be remembered by header. Other spellings are accepted but cost a parse and a hash
 * each time, so a client cannot fill memory with case and spacing variants of one key.
 */
export const isCanonicalBearer = (header: string): boolean =>
  header.length === CANONICAL_LENGTH &&
  header.startsWith(CANONICAL_BEARER) &&
  isWellFormedKey(header.slice(7));
const MISSING: AuthResult = { ok: false, reason: 'missing' };
const MALFORMED: AuthResult = { ok: false, reason: 'malformed' };
const UNKNOWN: AuthResult = { ok: false, reason: 'unknown' };
const REVOKED: AuthResult = { ok: false, reason: 'revoked' };

/*
 * Every cache here holds fixed-size entries (a 64-character hash, or a 48-character canonical header,
 * and a shared result), so its entry cap is a byte cap: together ≈ 25 MB at most, whatever is sent.
 */
/** Unknown hashes remembered, bounded so random keys cannot grow memory without limit. */
const NEGATIVE_CACHE_MAX = 10_000;
/** Keys found in the store (valid or revoked), by hash. */
const KNOWN_MAX = 100_000;
/** Valid keys by their canonical Authorization header. */
const HEADER_CACHE_MAX = 100_000;

/**
 * Resolves `Authorization: Bearer <key>` to a principal. Malformed keys never reach the store;
 * a well-formed key costs at most one indexed lookup, then lives in memory until the keys version
 * changes (invalidate()), which is how a revocation takes effect on the next request.
 */
export class KeyAuthenticator {
  /** Results are cached whole, so a hit allocates nothing. */
  private readonly known = new Map<string, AuthResult | 'revoked'>();
  private readonly unknown = new Set<string>();
  /**
   * Valid keys by their canonical Authorization header, so a repeat request costs one Map lookup
   * instead of a regex and a SHA-256 (≈ 2 µs, a tenth of a cached read's whole budget). Only the
   * canonical spelling of a valid key gets here: unknown, revoked and oddly spelled keys are never
   * remembered by header, so what a client sends cannot grow it.
   */
  private readonly byHeader = new Map<string, AuthResult>();

  constructor(private readonly keys: KeyStore) {}

  invalidate(): void {
    this.known.clear();
    this.unknown.clear();
    this.byHeader.clear();
  }

  async authenticate(header: string | undefined): Promise<AuthResult> {
    return this.authenticateCached(header) ?? this.lookup(hashKey(BEARER.exec(header!)![1]!));
  }

  /**
   * The answer when it needs no store lookup (a malformed key, or a hash already seen since the
   * last key change), else undefined: the hot path stays synchronous for every known key.
   */
  authenticateCached(header: string | undefined): AuthResult | undefined {
    if (header === undefined || header === '') return MISSING;
    const seen = this.byHeader.get(header);
    if (seen) return seen;
    const m = BEARER.exec(header);
    if (!m || !isWellFormedKey(m[1]!)) return MALFORMED;
    const hash = hashKey(m[1]!);
    const cached = this.known.get(hash);
    if (cached === 'revoked') return REVOKED;
    if (cached) {
      if (isCanonicalBearer(header)) {
        if (this.byHeader.size >= HEADER_CACHE_MAX) this.byHeader.clear();
        this.byHeader.set(header, cached);
      }
      return cached;
    }
    if (this.unknown.has(hash)) return UNKNOWN;
    return undefined;
  }

  private async lookup(hash: string): Promise<AuthResult> {
    const found = await this.keys.findByHash(hash);
    if (!found) {
      if (this.unknown.size >= NEGATIVE_CACHE_MAX) this.unknown.clear();
      this.unknown.add(hash);
      return UNKNOWN;
    }
    const { revoked, ...principal } = found;
    const result: AuthResult = { ok: true, principal };
    if (this.known.size >= KNOWN_MAX) this.known.clear();
    this.known.set(hash, revoked ? 'revoked' : result);
    return revoked ? REVOKED : result;
  }
}
