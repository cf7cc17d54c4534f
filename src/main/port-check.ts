import cluster from 'node:cluster';
import { createServer } from 'node:net';
import { ConfigError } from '../config/config.ts';

/**
 * Fails at once, with one line, when another process already listens on the service's address.
 * Checked before the database is opened: a start that cannot listen used to create, migrate and
 * seed a fresh database first and only then fail with a bare EADDRINUSE. (A cluster worker is not
 * checked: its listen goes through the primary, which shares the port with its other workers.)
 * Port 0 asks for any free port and cannot be taken.
 */
export async function ensurePortFree(host: string, port: number): Promise<void> {
  if (port === 0 || cluster.isWorker) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') return reject(err);
      reject(
        new ConfigError(
          `${host}:${port} is already in use (another PureRank, or another service): stop it, or choose another port (PORT or --port). Nothing was opened or written.`,
        ),
      );
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
