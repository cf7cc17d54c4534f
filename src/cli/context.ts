import { type Config, loadConfig } from '../config/config.ts';
import { systemClock } from '../core/clock.ts';
import { Operator } from '../core/operator/operator.ts';
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

/**
 * Like withStore, with the operator use cases (src/core/operator) over the opened store: the CLI
 * runs the same code as the operator API. A running server notices the writes through the data
 * version the write path bumps, so there is no `afterWrite` here.
 */
export function withOperator<T>(
  fn: (operator: Operator, store: OpenedStore, config: Readonly<Config>) => Promise<T>,
): Promise<T> {
  return withStore((store, config) =>
    fn(
      new Operator({
        store: store.operator,
        writer: store.imports,
        clock: systemClock,
        historyLength: config.scoreHistoryLength,
      }),
      store,
      config,
    ),
  );
}
