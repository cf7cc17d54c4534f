import type { KeyStore } from '../ports.ts';
import { hashKey, isWellFormedKey } from './api-key.ts';
import type { Principal } from './model.ts';

export type AuthFailure = 'missing' | 'malformed' | 'unknown' | 'revoked';
export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: AuthFailure };

const BEARER = /^Bearer +(\S+) *$/i;
/** Unknown hashes remembered, bounded so random keys cannot grow memory without limit. */
const NEGATIVE_CACHE_MAX = 10_000;

/**
 * Resolves `Authorization: Bearer <key>` to a principal. Malformed keys never reach the store;
 * a well-formed key costs at most one indexed lookup, then lives in memory until the keys version
 * changes (invalidate()), which is how a revocation takes effect on the next request.
 */
export class KeyAuthenticator {
  private readonly known = new Map<string, Principal | 'revoked'>();
  private readonly unknown = new Set<string>();

  constructor(private readonly keys: KeyStore) {}

  invalidate(): void {
    this.known.clear();
    this.unknown.clear();
  }

  async authenticate(header: string | undefined): Promise<AuthResult> {
    if (header === undefined || header === '') return { ok: false, reason: 'missing' };
    const m = BEARER.exec(header);
    if (!m || !isWellFormedKey(m[1]!)) return { ok: false, reason: 'malformed' };
    const hash = hashKey(m[1]!);
    const cached = this.known.get(hash);
    if (cached === 'revoked') return { ok: false, reason: 'revoked' };
    if (cached) return { ok: true, principal: cached };
    if (this.unknown.has(hash)) return { ok: false, reason: 'unknown' };
    const found = await this.keys.findByHash(hash);
    if (!found) {
      if (this.unknown.size >= NEGATIVE_CACHE_MAX) this.unknown.clear();
      this.unknown.add(hash);
      return { ok: false, reason: 'unknown' };
    }
    const { revoked, ...principal } = found;
    this.known.set(hash, revoked ? 'revoked' : principal);
    return revoked ? { ok: false, reason: 'revoked' } : { ok: true, principal };
  }
}
