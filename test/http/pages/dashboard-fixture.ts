import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Config } from '../../../src/config/config.ts';
import { createAccount } from '../../../src/core/accounts/manage-accounts.ts';
import type { Plan } from '../../../src/core/accounts/model.ts';
import { bearer, createTestContext, type TestContext } from '../../support/context.ts';
import type { Dialect } from '../../support/databases.ts';
import { REGISTRY } from '../coa/fixtures.ts';
import { type Pages, pages, type SignedInUser, signIn } from './console-fixture.ts';

export {
  expectCleanMarkup,
  expectPage,
  expectRedirect,
  formFields,
  noticeOf,
  type Pages,
  type SignedInUser,
} from './console-fixture.ts';

/**
 * The dashboard's tests: one database with the CoA suites' registry and four accounts —
 * `acme` (enterprise: an owner and a member), `other` (enterprise: an owner), `freebie` (free) and
 * `procorp` (pro), each user signed in through the real identity use cases.
 */
export interface Dashboard {
  ctx: TestContext;
  p: Pages;
  owner: SignedInUser;
  member: SignedInUser;
  otherOwner: SignedInUser;
  freeOwner: SignedInUser;
  proOwner: SignedInUser;
  accountId(name: string): Promise<number>;
  /** A GET of Variant B's vendor list with a key: the status it answers. */
  api(key: string, url?: string): Promise<number>;
  close(): Promise<void>;
}

const ACCOUNTS: [string, Plan][] = [
  ['acme', 'enterprise'],
  ['other', 'enterprise'],
  ['freebie', 'free'],
  ['procorp', 'pro'],
];

export async function setupDashboard(
  dialect: Dialect,
  opts: { config?: Partial<Config>; now?: number } = {},
): Promise<Dashboard> {
  const ctx = await createTestContext(dialect, opts);
  try {
    const loaded = await ctx.load(REGISTRY);
    expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
    for (const [name, plan] of ACCOUNTS) await createAccount(ctx.container.store, { name, plan });
    return {
      ctx,
      p: pages(ctx),
      owner: await signIn(ctx, 'owner@acme.example', { role: 'owner', account: 'acme' }),
      member: await signIn(ctx, 'member@acme.example', { role: 'member', account: 'acme' }),
      otherOwner: await signIn(ctx, 'owner@other.example', { role: 'owner', account: 'other' }),
      freeOwner: await signIn(ctx, 'owner@freebie.example', { role: 'owner', account: 'freebie' }),
      proOwner: await signIn(ctx, 'owner@procorp.example', { role: 'owner', account: 'procorp' }),
      async accountId(name) {
        const a = await ctx.container.store.accounts.findByName(name);
        if (!a) throw new Error(`no account ${name}`);
        return a.id;
      },
      async api(key, url = '/api/v1/vendors?limit=2') {
        const res = await ctx.app.inject({ url, headers: bearer(key) });
        return res.statusCode;
      },
      close: () => ctx.close(),
    };
  } catch (e) {
    await ctx.close();
    throw e;
  }
}

/** The one-time secret a page shows in its `.secret` box (HTML-unescaped), or null. */
export function secretOf(html: string, id: string): string | null {
  const m = new RegExp(`<p class="secret" id="${id}">([^<]*)</p>`).exec(html);
  return m ? m[1]!.replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"') : null;
}

/** The status of an answer that is a page (HTML), as a browser would see it. */
export function expectHtml(res: LightMyRequestResponse, status: number): string {
  expect(res.statusCode, res.body.slice(0, 1500)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  return res.body;
}

/**
 * A form post with repeated fields (checkboxes of one name), as a browser on this site sends it:
 * same Origin, the session's `_csrf` first.
 */
export function postPairs(
  d: Dashboard,
  url: string,
  who: SignedInUser,
  pairs: [string, string][],
  opts: { csrf?: string | null; origin?: string } = {},
): Promise<LightMyRequestResponse> {
  const body = new URLSearchParams();
  const csrf = opts.csrf === undefined ? who.csrf : opts.csrf;
  if (csrf !== null) body.append('_csrf', csrf);
  for (const [k, v] of pairs) body.append(k, v);
  return d.ctx.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      host: 'localhost:80',
      origin: opts.origin ?? 'http://localhost:80',
      cookie: who.cookie,
    },
    payload: body.toString(),
  });
}
