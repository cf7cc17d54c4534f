import { DomainError } from '../core/errors.ts';
import type { AccountStore } from '../core/ports.ts';
import type { IdentityService, IssuedLink } from '../core/users/model.ts';
import { DEMO_ACCOUNT } from './demo-vendors.ts';

/** The demo account's owner: a newcomer signs in to the dashboard as them (`npm start` prints a link). */
export const DEMO_OWNER_EMAIL = 'owner@demo.purerank.test';

/**
 * A fresh one-time sign-in link for the demo owner, inviting them into the demo account first when
 * they do not exist yet. A new link supersedes the one printed at the previous start. Null when
 * there is no demo account (a database without the demo dataset) or the owner was disabled.
 */
export async function demoOwnerLink(deps: {
  identity: IdentityService;
  accounts: Pick<AccountStore, 'findByName'>;
}): Promise<IssuedLink | null> {
  if (!(await deps.accounts.findByName(DEMO_ACCOUNT))) return null;
  try {
    return await deps.identity.reset(DEMO_OWNER_EMAIL);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === 'conflict') return null;
    if (err.code !== 'not_found') throw err;
  }
  return deps.identity.invite({
    email: DEMO_OWNER_EMAIL,
    account: DEMO_ACCOUNT,
    role: 'owner',
    invitedBy: 'demo dataset',
  });
}
