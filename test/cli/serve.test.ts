import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS, runCli, startServer, stopServer, suiteDatabase } from './run-cli.ts';

describe.concurrent.each(DIALECTS)('purerank serve (%s)', (dialect) => {
  describe.sequential('on one database', () => {
    const db = suiteDatabase(dialect);

    it('seeds an empty database, prints a working demo key, stops gracefully and keeps quota across restarts', async () => {
      // The demo is loaded on PostgreSQL only when asked (config: PURERANK_SEED_DEMO).
      const env = { ...db.env, PURERANK_SEED_DEMO: 'true' };
      const first = await startServer(env);
      const key = /Demo API key \(enterprise plan\): (prk_live_\w{32})/.exec(first.output())?.[1];
      expect(key, first.output()).toBeDefined();
      expect(first.output()).toContain('Loaded the demo dataset');
      expect(first.output()).toContain('/docs');
      const headers = { authorization: `Bearer ${key}` };
      let remaining = '';
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${first.base}/api/v1/vendors?limit=1`, { headers });
        expect(res.status).toBe(200);
        remaining = res.headers.get('x-ratelimit-remaining')!;
      }
      expect(remaining).toBe('997');
      expect(await stopServer(first.child)).toBe(0);

      // Second start: no re-seed, the same demo key, and the quota used before the restart still counts.
      const second = await startServer(env);
      expect(second.output()).not.toContain('Loaded the demo dataset');
      expect(second.output()).toContain(key!);
      const res = await fetch(`${second.base}/api/v1/vendors?limit=1`, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('996');

      // A key revoked by another process (the CLI) fails on the server's very next request.
      const revoke = await runCli(['keys', 'revoke', key!], env);
      expect(revoke.code).toBe(0);
      const after = await fetch(`${second.base}/api/v1/vendors?limit=1`, { headers });
      expect(after.status).toBe(401);
      expect(((await after.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
      expect(await stopServer(second.child)).toBe(0);
    }, 90_000);

    it('a port another process listens on: one line, exit 1, and no database created or seeded', async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const port = (taken.address() as AddressInfo).port;
      const dir = mkdtempSync(join(tmpdir(), 'purerank-port-'));
      try {
        const path = join(dir, 'fresh.db');
        const r = await runCli(['serve', '--port', String(port)], {
          ...(dialect === 'sqlite' ? { DATABASE_URL: `sqlite:${path}` } : db.env),
        });
        expect(r.code).toBe(1);
        expect(r.stderr.trim()).toBe(
          `purerank: 127.0.0.1:${port} is already in use (another PureRank, or another service): stop it, or choose another port (PORT or --port). Nothing was opened or written.`,
        );
        expect(existsSync(path)).toBe(false);
      } finally {
        taken.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses a short admin token at start-up with one line', async () => {
      const r = await runCli(['serve'], { ...db.env, PURERANK_ADMIN_TOKEN: 'short' });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        'purerank: PURERANK_ADMIN_TOKEN must be at least 32 characters (or unset to turn the operator API off)',
      );
    });
  });
});
