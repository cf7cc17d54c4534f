export {
  type AdminOptions,
  type ClientOptions,
  createAdminClient,
  createPureRankClient,
  type ItemA,
  type PagedPathA,
  type PageParamsA,
  type PureRankClient,
  PureRankError,
  type VendorB,
} from './client.ts';
export { CACHE_HEADER, EtagCache, withEtagCache } from './etag-cache.ts';
export type * as Admin from './generated/admin.ts';
export type * as VariantA from './generated/variant-a.ts';
export type * as VariantB from './generated/variant-b.ts';
export { eachNumberedPage, eachOffsetPage, type NumberedPage, type OffsetPage } from './paging.ts';
export { abortableSleep, ReplayableRequest, type RetryOptions, retryAfterMs, withRetry } from './retry.ts';
export { DEFAULT_TIMEOUT_MS, withTimeout } from './timeout.ts';
export { type VerifyOptions, type VerifyResult, verifyWebhook, type WebhookHeaders } from './webhooks.ts';
