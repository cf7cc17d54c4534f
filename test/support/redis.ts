import { Redis } from 'ioredis';

/** The shared Redis of the test suites (the machine's; each suite works under a prefix of its own). */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Why the shared Redis does not answer, or null when it does (one PING, 1 s to connect). */
export async function redisProblem(url = REDIS_URL): Promise<string | null> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1000, retryStrategy: () => null });
  // ioredis rejects connect() with "Connection is closed"; the 'error' event carries the cause.
  let cause: unknown;
  client.on('error', (err) => {
    cause = err;
  });
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (err) {
    const reason = cause ?? err;
    return reason instanceof Error ? reason.message : String(reason);
  } finally {
    client.disconnect();
  }
}

/**
 * Whether a suite that needs Redis can run: with CI=true a missing Redis fails the importing file at
 * load (a suite must never pass by being skipped there); locally the suite is skipped with a warning
 * naming it.
 */
export async function redisAvailable(suite: string): Promise<boolean> {
  const problem = await redisProblem();
  if (problem === null) return true;
  const why = `Redis not reachable at ${REDIS_URL}: ${problem}`;
  if (process.env.CI === 'true') throw new Error(`${why} (required when CI=true)`);
  console.warn(`[tests] skipping ${suite}: ${why}`);
  return false;
}
