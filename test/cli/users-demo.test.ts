import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { type RunningServer, startServer } from '../../src/main/server.ts';
import { DEMO_OWNER_EMAIL } from '../../src/seed/demo-owner.ts';

const DASHBOARD_LINE =
  /^Dashboard: sign in as owner@demo\.purerank\.test with this one-time link \(sets a password; printed until one is set\): (http:\/\/\S+\/dashboard\/welcome\/([A-Za-z0-9_-]{43}))$/m;

/** `npm start` on the demo dataset prints a one-time sign-in link for the demo account's owner. */
describe('the demo owner at start-up', () => {
  const dir = mkdtempSync(join(tmpdir(), 'purerank-demo-owner-'));
  const running: RunningServer[] = [];
  afterAll(async () => {
    for (const s of running) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (name: string, env: Record<string, string> = {}) => {
    const config = loadConfig(env, {
      port: 0,
      databaseUrl: `sqlite:${join(dir, name)}.db`,
      adminToken: null,
    });
    const s = await startServer(config);
    running.push(s);
    return s;
  };
  const stop = async (s: RunningServer) => {
    running.splice(running.indexOf(s), 1);
    await s.stop();
  };

  it('prints a working link on the address it listens on; the next start prints a new one and the old stops working', async () => {
    const first = await start('demo');
    const banner = first.banner.join('\n');
    const m = DASHBOARD_LINE.exec(banner);
    expect(m, banner).not.toBeNull();
    expect(m![1]!.startsWith(`${first.base}/dashboard/welcome/`)).toBe(true);
    // The page the link opens (a set-password form), over the real socket.
    const page = await fetch(m![1]!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(DEMO_OWNER_EMAIL);
    const owner = (await first.container.identity.list({ account: 'demo' })).find(
      (u) => u.email === DEMO_OWNER_EMAIL,
    );
    expect(owner).toMatchObject({ role: 'owner', account: { name: 'demo' } });
    await stop(first);

    const second = await start('demo');
    const m2 = DASHBOARD_LINE.exec(second.banner.join('\n'));
    expect(m2).not.toBeNull();
    expect(m2![2]).not.toBe(m![2]);
    expect(await second.container.identity.inspectLink(m![2]!)).toBeNull();
    const opened = await second.container.identity.followLink(m2![2]!, 'demo owner password', {
      address: '127.0.0.1',
      userAgent: null,
    });
    expect(opened.session.user.email).toBe(DEMO_OWNER_EMAIL);
    // Still one demo owner.
    expect((await second.container.identity.list()).filter((u) => u.email === DEMO_OWNER_EMAIL)).toHaveLength(
      1,
    );
    await stop(second);

    // Once the owner has a password no start prints a link (it would be a standing password reset for
    // whoever reads the output); the banner says where to sign in and how to get a reset on purpose.
    const third = await start('demo');
    const banner3 = third.banner.join('\n');
    expect(banner3).not.toMatch(/dashboard\/welcome\//);
    expect(banner3).toContain(
      `Dashboard: ${third.base}/dashboard/sign-in as ${DEMO_OWNER_EMAIL} (forgot the password? npx purerank users reset ${DEMO_OWNER_EMAIL})`,
    );
    expect(await third.container.identity.inspectLink(m2![2]!)).toBeNull();
  });

  it('with PURERANK_PUBLIC_URL the link is on the public address', async () => {
    const s = await start('public', { PURERANK_PUBLIC_URL: 'https://purerank.example' });
    expect(s.banner.join('\n')).toMatch(
      /^Dashboard: .*: https:\/\/purerank\.example\/dashboard\/welcome\/[A-Za-z0-9_-]{43}$/m,
    );
  });

  it('prints nothing about the dashboard without the demo dataset', async () => {
    const s = await start('bare', { PURERANK_SEED_DEMO: 'false' });
    expect(s.banner.join('\n')).not.toContain('Dashboard:');
    expect(await s.container.identity.list()).toEqual([]);
  });
});
