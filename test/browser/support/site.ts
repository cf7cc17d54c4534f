import type { Config } from '../../../src/config/config.ts';
import { createAccount } from '../../../src/core/accounts/manage-accounts.ts';
import type { Plan } from '../../../src/core/accounts/model.ts';
import type { UserRole } from '../../../src/core/users/model.ts';
import { runCli } from '../../cli/run-cli.ts';
import { ADMIN_TOKEN, createTestContext, T0, type TestContext } from '../../support/context.ts';
import type { Dialect } from '../../support/databases.ts';

export { ADMIN_TOKEN, T0 };

/** The password every test user chooses (at least 12 characters). */
export const PASSWORD = 'correct horse battery staple';

/**
 * The service as a browser meets it: the real app (buildApp, the fast path first) listening on a
 * real port of 127.0.0.1, over a fresh database of the dialect (a temp SQLite file or a new
 * PostgreSQL database), on the tests' manual clock so expiries (a rolled key's overlap, a sign-in
 * lock) can be reached without waiting.
 */
export interface Site {
  dialect: Dialect;
  ctx: TestContext;
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  base: string;
  /** Creates the account unless it exists. */
  account(name: string, plan?: Plan): Promise<void>;
  /**
   * Invites through the core (services.identity), as the admin API and the CLI do; returns the
   * one-time link on this site (the path of the link the core issued, under `base`).
   */
  invite(email: string, account: string | null, role: UserRole): Promise<string>;
  /**
   * Invites through the real CLI (`purerank users invite`), a child process on the same database;
   * returns the link it printed alone on the last line of stdout.
   */
  inviteByCli(email: string, account: string): Promise<string>;
  /** A request to the API with a key (bearer), over the real socket. */
  api(path: string, key: string): Promise<Response>;
  close(): Promise<void>;
}

export async function startSite(
  dialect: Dialect,
  opts: { records?: Record<string, unknown>[]; config?: Partial<Config> } = {},
): Promise<Site> {
  const ctx = await createTestContext(dialect, opts.config ? { config: opts.config } : {});
  let base: string;
  try {
    if (opts.records) {
      const loaded = await ctx.load(opts.records);
      if (!loaded.ok) throw new Error(`the site's records did not load: ${JSON.stringify(loaded)}`);
    }
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await ctx.close();
    throw err;
  }
  const onSite = (url: string): string => {
    const u = new URL(url);
    return `${base}${u.pathname}${u.search}`;
  };
  return {
    dialect,
    ctx,
    base,
    async account(name, plan = 'enterprise') {
      if (await ctx.container.store.accounts.findByName(name)) return;
      await createAccount(ctx.container.store, { name, plan });
    },
    async invite(email, account, role) {
      const link = await ctx.container.identity.invite({ email, account, role, invitedBy: 'browser-test' });
      return onSite(link.url);
    },
    async inviteByCli(email, account) {
      const res = await runCli(['users', 'invite', email, '--account', account], {
        DATABASE_URL: ctx.databaseUrl,
        PURERANK_PUBLIC_URL: base,
      });
      if (res.code !== 0) throw new Error(`purerank users invite failed (${res.code}): ${res.stderr}`);
      const last = res.stdout.trimEnd().split('\n').at(-1) ?? '';
      if (!last.startsWith(`${base}/dashboard/welcome/`)) {
        throw new Error(`purerank users invite did not end with a link on this site:\n${res.stdout}`);
      }
      return last;
    },
    api: (path, key) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } }),
    close: () => ctx.close(),
  };
}
