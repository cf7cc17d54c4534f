import { loadConfig } from '../config/config.ts';
import { type CoreContainer, createContainer } from '../container.ts';

/**
 * Runs a one-shot command with the composition root's CLI container (the store, migrated, and the
 * operator use cases, the same code as the operator API), and always closes it. Commands wire
 * nothing themselves.
 */
export async function withContainer<T>(
  fn: (c: CoreContainer) => Promise<T>,
  opts: { migrate?: boolean } = {},
): Promise<T> {
  const container = await createContainer(loadConfig(), { purpose: 'cli', ...opts });
  try {
    return await fn(container);
  } finally {
    await container.close();
  }
}
