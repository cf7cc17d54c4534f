import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { type RunningServer, startServer } from '../../../src/main/server.ts';
import { ADMIN_TOKEN } from '../../support/context.ts';

/** The start banner is a newcomer's first instructions: they must work when pasted into zsh. */
describe('start banner', () => {
  const dir = mkdtempSync(join(tmpdir(), 'purerank-banner-'));
  const running: RunningServer[] = [];
  afterAll(async () => {
    for (const s of running) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (name: string, adminToken: string | null) => {
    const config = loadConfig({}, { port: 0, databaseUrl: `sqlite:${join(dir, name)}.db`, adminToken });
    const s = await startServer(config);
    running.push(s);
    return s.banner.join('\n');
  };

  it('quotes the Try: URL (zsh globs an unquoted ?) and says the operator API is off', async () => {
    const banner = await start('off', null);
    expect(banner).toMatch(
      /Try: curl -H 'Authorization: Bearer prk_live_\w+' 'http:\/\/[^']+\/api\/v1\/vendors\?limit=3'$/m,
    );
    expect(banner).toContain('Operator API: off (set PURERANK_ADMIN_TOKEN');
  });

  it('says the operator API is on when the admin token is set', async () => {
    expect(await start('on', ADMIN_TOKEN)).toMatch(/^Operator API: on, at http:\/\/[^ ]+\/admin\/v1 /m);
  });
});
