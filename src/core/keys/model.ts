import type { Plan } from '../accounts/model.ts';

/** What a valid key resolves to on the hot path. */
export interface Principal {
  keyId: string;
  accountId: number;
  accountName: string;
  plan: Plan;
  rateLimitA: number | null;
  rateLimitB: number | null;
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
