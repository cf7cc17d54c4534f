import { Redis } from 'ioredis';
import { MemoryRateLimiter, RedisRateLimiter } from './adapters/ratelimit/index.ts';
import { catalogTermIndex } from './adapters/search/catalog-term-index.ts';
import type { Config } from './config/config.ts';
import { Freshness } from './core/catalog/freshness.ts';
import { CatalogReadModel } from './core/catalog/read-model.ts';
import { type Clock, systemClock } from './core/clock.ts';
import { KeyAuthenticator } from './core/keys/authenticate.ts';
import { Operator } from './core/operator/operator.ts';
import type { RateLimiter } from './core/ratelimit/model.ts';
import { CatalogSearch } from './core/search/search-catalog.ts';
import type { AppServices } from './http/services.ts';
import { type OpenedStore, openStore, parseDatabaseUrl } from './storage/open-store.ts';

export interface Container extends AppServices {
  store: OpenedStore;
  close(): Promise<void>;
}

/**
 * The composition root: the only place that sees both the core's ports and their adapters.
 * SQLite or PostgreSQL by DATABASE_URL; Redis or in-memory rate limiting by REDIS_URL.
 */
export async function createContainer(
  config: Readonly<Config>,
  opts: { clock?: Clock; limiter?: 'auto' | 'memory' } = {},
): Promise<Container> {
  const clock = opts.clock ?? systemClock;
  const store = await openStore(parseDatabaseUrl(config.databaseUrl), { method: config.scoring });
  try {
    const freshness = await Freshness.start(store.state);
    let limiter: RateLimiter;
    if (config.redisUrl && opts.limiter !== 'memory') {
      const redis = new Redis(config.redisUrl, {
        lazyConnect: true,
        maxRetriesPerRequest: 2,
        enableOfflineQueue: true,
      });
      await redis.connect();
      limiter = new RedisRateLimiter({ redis, clock, ownsClient: true });
    } else {
      limiter = await MemoryRateLimiter.open({ clock, stateStore: store.rateLimits });
    }
    return {
      config,
      clock,
      store,
      freshness,
      auth: new KeyAuthenticator(store.keys),
      catalog: new CatalogReadModel(store.catalog),
      limiter,
      search: new CatalogSearch(catalogTermIndex),
      operator: new Operator({
        store: store.operator,
        writer: store.imports,
        clock,
        historyLength: config.scoreHistoryLength,
        afterWrite: () => freshness.refresh(),
      }),
      async close() {
        await limiter.close();
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
