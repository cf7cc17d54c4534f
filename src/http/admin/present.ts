import type { Account } from '../../core/accounts/model.ts';
import type { StoredEvent } from '../../core/events/model.ts';
import type { ApiKeyInfo } from '../../core/keys/model.ts';

/** The operator API's shapes, field by field: camelCase like the import format; no internal ids. */

export const presentAccount = (a: Account) => ({
  name: a.name,
  plan: a.plan,
  rateLimitA: a.rateLimitA,
  rateLimitB: a.rateLimitB,
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
