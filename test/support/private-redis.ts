import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

/**
 * A redis-server of a suite's own on a free port (nothing kept on disk), so a test can stop it and
 * start it again without touching the machine's shared Redis.
 */
export class PrivateRedis {
  private proc: ChildProcess | null = null;
  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const r = new PrivateRedis(await freePort());
    await r.up();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    this.proc = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const c = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null });
      c.on('error', () => {});
      try {
        await c.connect();
        await c.ping();
        return;
      } catch {
        await sleep(50);
      } finally {
        c.disconnect();
      }
    }
    throw new Error('the private redis-server did not start');
  }

  async down(): Promise<void> {
    const p = this.proc;
    this.proc = null;
    if (!p || p.exitCode !== null) return;
    p.kill('SIGKILL');
    await once(p, 'exit');
  }
}

export async function freePort(): Promise<number> {
  const s = createServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const addr = s.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  s.close();
  await once(s, 'close');
  return port;
}
