/** Rate-limiter adapters: in-memory (persisted to the main store) and Redis (shared across instances). */
export { MemoryRateLimiter, type MemoryRateLimiterDeps } from './memory-limiter.ts';
export { MemoryRateLimitStateStore } from './memory-state-store.ts';
export { RedisRateLimiter, type RedisRateLimiterDeps } from './redis-limiter.ts';
