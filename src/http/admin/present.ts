import { appliedLimit } from '../../core/accounts/custom-limits.ts';
import type { Account } from '../../core/accounts/model.ts';
import type { StoredEvent } from '../../core/events/model.ts';
import type { ApiKeyInfo } from '../../core/keys/model.ts';

/** The operator API's shapes, field by field: camelCase like the import format; no internal ids. */

export const presentAccount = (a: Account) => ({
  name: a.name,
  plan: a.plan,
  // What is applied: a stored limit outside the bounds is clamped when read (custom-limits.ts).
  rateLimitA: appliedLimit('rateLimitA', a.rateLimitA),
  rateLimitB: appliedLimit('rateLimitB', a.rateLimitB),
  createdAt: a.createdAt,
});

export const presentKey = (k: ApiKeyInfo) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt,
  revokedAt: k.revokedAt,
});

export const presentEvent = (e: StoredEvent) => ({
  seq: e.seq,
  id: e.id,
  type: e.type,
  createdAt: e.createdAt,
  data: e.data,
});
