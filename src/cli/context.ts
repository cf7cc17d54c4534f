import { type Config, loadConfig } from '../config/config.ts';
import { type OpenedStore, openStore, parseDatabaseUrl } from '../storage/open-store.ts';

/** Opens the configured store (migrating it), runs `fn`, always closes. */
export async function withStore<T>(
  fn: (store: OpenedStore, config: Readonly<Config>) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const store = await openStore(parseDatabaseUrl(config.databaseUrl), { method: config.scoring });
  try {
    return await fn(store, config);
  } finally {
    await store.close();
  }
}
