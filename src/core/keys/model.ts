import type { Plan } from '../accounts/model.ts';

/** What a valid key resolves to on the hot path. */
export interface Principal {
  keyId: string;
  accountId: number;
  accountName: string;
  plan: Plan;
  rateLimitA: number | null;
  rateLimitB: number | null;
  /**
   * When a rolled key stops working (epoch ms), or null. Compared with the time on every request,
   * since nothing else changes at that moment (no keys-version bump tells the caches).
   */
  expiresAtMs: number | null;
}

export interface ApiKeyInfo {
  id: string;
  accountId: number;
  name: string | null;
  /** Display prefix, e.g. `prk_live_Ab12`: enough to recognise a key, useless to an attacker. */
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** A key as its account sees it on the dashboard. */
export type KeyState = 'active' | 'expiring' | 'expired' | 'revoked';

export interface AccountKey extends ApiKeyInfo {
  /** Set by a roll: the key stops working then. */
  expiresAt: string | null;
  /** The key a roll replaced this one with. */
  rolledTo: string | null;
  /** The last counted or refused request (from the usage store; minutes behind at most). */
  lastUsedAt: string | null;
  state: KeyState;
}

/** A key with its roll state as stored: the dashboard's view without what usage and the time add. */
export type StoredAccountKey = Omit<AccountKey, 'lastUsedAt' | 'state'>;

/** The overlaps a roll offers, in seconds: now, 1 hour, 24 hours, 7 days. */
export const ROLL_OVERLAPS = [0, 3600, 86_400, 604_800] as const;
export type RollOverlap = (typeof ROLL_OVERLAPS)[number];

/**
 * An account's own keys (the dashboard). Another account's key id is not_found, exactly like a
 * missing one. Every change bumps the keys version, so it holds on the next request everywhere.
 */
export interface AccountKeysService {
  list(accountId: number): Promise<AccountKey[]>;
  /** The plaintext is returned here once and never again. */
  create(accountId: number, name: string | null): Promise<{ key: string; info: AccountKey }>;
  revoke(accountId: number, keyId: string): Promise<AccountKey>;
  /** A new key at once; the old one expires after the overlap (0 = revoked now). */
  roll(
    accountId: number,
    keyId: string,
    overlapSeconds: RollOverlap,
  ): Promise<{ key: string; info: AccountKey; old: AccountKey }>;
}
