import type { AccountStore } from '../core/ports.ts';
import type { IdentityService, IssuedLink } from '../core/users/model.ts';
import { DEMO_ACCOUNT } from './demo-vendors.ts';

/** The demo account's owner: a newcomer signs in to the dashboard as them (`npm start` prints a link). */
export const DEMO_OWNER_EMAIL = 'owner@demo.purerank.test';

/** What the banner says about the demo owner. */
export type DemoOwnerAccess =
  /** No password yet: a one-time link that sets one (it supersedes the previous start's). */
  | { kind: 'link'; link: IssuedLink }
  /** The owner has chosen a password: they sign in with it; the banner prints no link. */
  | { kind: 'active'; email: string };

/**
 * How the demo owner gets in. A link is printed only until the owner has set a password: a link
 * printed at every start would be a standing password reset for anyone who reads the service's
 * output or logs. After that, `purerank users reset` issues one on purpose. Null when there is no
 * demo account (a database without the demo dataset) or the owner was disabled.
 */
export async function demoOwnerAccess(deps: {
  identity: IdentityService;
  accounts: Pick<AccountStore, 'findByName'>;
}): Promise<DemoOwnerAccess | null> {
  if (!(await deps.accounts.findByName(DEMO_ACCOUNT))) return null;
  const owner = (await deps.identity.list({ account: DEMO_ACCOUNT })).find(
    (u) => u.email === DEMO_OWNER_EMAIL,
  );
  if (owner?.disabledAt) return null;
  if (owner?.hasPassword) return { kind: 'active', email: owner.email };
  if (owner) return { kind: 'link', link: await deps.identity.reset(owner.email) };
  const link = await deps.identity.invite({
    email: DEMO_OWNER_EMAIL,
    account: DEMO_ACCOUNT,
    role: 'owner',
    invitedBy: 'demo dataset',
  });
  return { kind: 'link', link };
}
