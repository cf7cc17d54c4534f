import type { Config } from '../config/config.ts';
import type { Freshness } from '../core/catalog/freshness.ts';
import type { CatalogReadModel } from '../core/catalog/read-model.ts';
import type { Clock } from '../core/clock.ts';
import type { PdfReader } from '../core/coa/model.ts';
import type { CoaVerifier } from '../core/coa/verify-coa.ts';
import type { ImportWriter } from '../core/import/import-data.ts';
import type { KeyAuthenticator } from '../core/keys/authenticate.ts';
import type { AccountKeysService } from '../core/keys/model.ts';
import type { Operator } from '../core/operator/operator.ts';
import type { Store } from '../core/ports.ts';
import type { RateLimiter } from '../core/ratelimit/model.ts';
import type { CatalogSearch } from '../core/search/search-catalog.ts';
import type { UsageService } from '../core/usage/model.ts';
import type { UsageMeter } from '../core/usage/usage-meter.ts';
import type { IdentityService } from '../core/users/model.ts';
import type { Webhooks } from '../core/webhooks/manage-webhooks.ts';

/** Everything the HTTP layer is handed by the composition root (src/container.ts). */
export interface AppServices {
  config: Readonly<Config>;
  clock: Clock;
  store: Store & { imports: ImportWriter };
  freshness: Freshness;
  auth: KeyAuthenticator;
  catalog: CatalogReadModel;
  limiter: RateLimiter;
  search: CatalogSearch;
  /** The operator's use cases (operator API and CLI). */
  operator: Operator;
  /** CoA verification by upload (Variant A). */
  coa: CoaVerifier;
  /** Webhook endpoints, the delivery log and the event log (Variant A). */
  webhooks: Webhooks;
  /** Users, one-time links, sessions and sign-in (the pages; the operator API's users). */
  identity: IdentityService;
  /** The PDF reader's worker pool (warmed at start, closed at shutdown). */
  pdf: PdfReader & { warm(): Promise<void> };
  /** An account's own API keys: list, create, revoke, roll (the dashboard). */
  accountKeys: AccountKeysService;
  /** Usage per key and variant: now (from the limiter) and per hour or day (the dashboard). */
  usage: UsageService;
  /** Where the admission decision records usage (in memory; flushed by the container). */
  usageMeter: UsageMeter;
}
