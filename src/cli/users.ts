import type { Command } from 'commander';
import { MEMBER_ROLES, type User } from '../core/users/model.ts';
import { withContainer } from './context.ts';
import { actorOf, actorOption, cell, choice, jsonOption, out, printJson, table } from './operator-io.ts';
import { CliError } from './output.ts';

/** What `users list --json` prints: the user as the operator API shows it (no internal ids). */
const userView = (u: User) => ({
  email: u.email,
  role: u.role,
  account: u.account?.name ?? null,
  hasPassword: u.hasPassword,
  disabledAt: u.disabledAt,
  createdAt: u.createdAt,
  lastSignInAt: u.lastSignInAt,
  invitedBy: u.invitedBy,
});

const stateOf = (u: User): string => (u.disabledAt ? 'disabled' : u.hasPassword ? 'active' : 'invited');

/**
 * People who sign in to the dashboard and the console. Invitations and resets are one-time links
 * (no mail server is assumed): the link alone is the last line of stdout, so a script can take it
 * with `tail -n 1`.
 */
export function usersCommand(program: Command): void {
  const users = program
    .command('users')
    .description(
      'Manage users of the dashboard and the console (invitations and resets are one-time links).',
    );

  actorOption(
    users
      .command('invite')
      .argument('<email>', 'the user’s email address')
      .option('--account <name>', 'the account they join')
      .option('--role <role>', `their role in the account: ${MEMBER_ROLES.join(' or ')} (default member)`)
      .option('--operator', 'an operator (no account; the console)')
      .description(
        'Invite a user: prints a one-time link (valid 72 h by default) alone on the last line. Following it sets a password and signs in.',
      ),
  ).action(async (email: string, o: { account?: string; role?: string; operator?: boolean; as?: string }) => {
    if (o.operator && o.account !== undefined)
      throw new CliError('give either --account NAME or --operator, not both');
    if (!o.operator && o.account === undefined) throw new CliError('give --account NAME (or --operator)');
    if (o.operator && o.role !== undefined)
      throw new CliError('--role is for account members; an operator has none');
    const role = o.operator ? 'operator' : choice('--role', o.role ?? 'member', MEMBER_ROLES);
    const invitedBy = actorOf(o);
    await withContainer(async ({ identity }) => {
      const link = await identity.invite({ email, account: o.account ?? null, role, invitedBy });
      const where = link.user.account
        ? `to ${link.user.account.name} as ${link.user.role}`
        : 'as an operator';
      out(`invited ${link.user.email} ${where}`);
      out(`the link works once, until ${link.expiresAt}; give it to them privately:`);
      out(link.url);
    });
  });

  users
    .command('reset')
    .argument('<email>', 'the user’s email address')
    .description(
      'Print a one-time link to set a new password, alone on the last line. Earlier unused links stop working; following it ends the user’s other sessions.',
    )
    .action(async (email: string) => {
      await withContainer(async ({ identity }) => {
        const link = await identity.reset(email);
        const what = link.purpose === 'invite' ? 'a new invitation link (not accepted yet)' : 'a reset link';
        out(`${what} for ${link.user.email}; earlier links no longer work`);
        out(`the link works once, until ${link.expiresAt}; give it to them privately:`);
        out(link.url);
      });
    });

  jsonOption(
    users
      .command('list')
      .option('--account <name>', 'only this account’s users')
      .description(
        'List users: email, role, account, state (invited, active, disabled), created, last sign-in.',
      ),
  ).action(async (o: { account?: string; json?: boolean }) => {
    await withContainer(async ({ identity }) => {
      const list = await identity.list(o.account === undefined ? {} : { account: o.account });
      if (o.json) printJson(list.map(userView));
      else if (list.length === 0) out('no users');
      else
        out(
          table(
            ['EMAIL', 'ROLE', 'ACCOUNT', 'STATE', 'CREATED', 'LAST SIGN-IN', 'INVITED BY'],
            list.map((u) => [
              u.email,
              u.role,
              cell(u.account?.name),
              stateOf(u),
              u.createdAt,
              cell(u.lastSignInAt),
              cell(u.invitedBy),
            ]),
          ),
        );
    });
  });

  users
    .command('disable')
    .argument('<email>', 'the user’s email address')
    .description('Disable a user: their sessions end at once, their links stop working, sign-in is refused.')
    .action(async (email: string) => {
      await withContainer(async ({ identity }) => {
        const u = await identity.disable(email);
        out(`disabled ${u.email}; their sessions ended`);
      });
    });
}
