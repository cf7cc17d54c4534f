import type { Command } from 'commander';
import type { AccountChange } from '../core/accounts/change-account.ts';
import { type LimitField, RATE_LIMIT_BOUNDS } from '../core/accounts/custom-limits.ts';
import { PLANS } from '../core/accounts/model.ts';
import { withContainer } from './context.ts';
import { actorOf, actorOption, choice, out } from './operator-io.ts';
import { CliError, positiveInt } from './output.ts';

/**
 * `accounts plan`: added to the existing `accounts` command (src/cli/accounts.ts), so `accounts
 * create`, `accounts list` and `accounts plan` are one group.
 */
export function accountPlanCommand(program: Command): void {
  const accounts = program.commands.find((c) => c.name() === 'accounts');
  if (!accounts) throw new Error('register the accounts command before accounts plan');
  actorOption(accounts.command('plan'))
    .argument('<name>', 'account name')
    .requiredOption('--plan <plan>', `one of ${PLANS.join(', ')}`)
    .option('--rate-limit-a <n>', 'custom plan: requests per UTC hour on /v1, or "default"')
    .option('--rate-limit-b <n>', 'custom plan: requests per rolling 24 h on /api/v1, or "default"')
    .description(
      'Change the plan (and custom limits) of an existing account; running servers apply it on the next request. Limits not given are kept.',
    )
    .action(
      async (name: string, o: { plan: string; rateLimitA?: string; rateLimitB?: string; as?: string }) => {
        const change: AccountChange = { plan: choice('--plan', o.plan, PLANS) };
        if (o.rateLimitA !== undefined)
          change.rateLimitA = limit('--rate-limit-a', 'rateLimitA', o.rateLimitA);
        if (o.rateLimitB !== undefined)
          change.rateLimitB = limit('--rate-limit-b', 'rateLimitB', o.rateLimitB);
        await withContainer(async ({ operator: op }) => {
          // The use case refuses an unknown account (not_found) instead of creating it.
          const { previous, account } = await op.updateAccount(name, change, actorOf(o));
          const was = previous.plan === account.plan ? '' : ` (was ${previous.plan})`;
          out(
            `account ${name}: plan ${account.plan}${was}; rate limit A ${shown(account.rateLimitA, '/h')}, ` +
              `B ${shown(account.rateLimitB, '/24h')}`,
          );
        });
      },
    );
}

function limit(name: string, field: LimitField, raw: string): number | null {
  if (raw === 'default') return null;
  const { max } = RATE_LIMIT_BOUNDS[field];
  try {
    return positiveInt(name, raw, max);
  } catch {
    throw new CliError(`${name} must be a whole number from 1 to ${max} or "default", got '${raw}'`);
  }
}

const shown = (n: number | null, unit: string): string => (n === null ? 'plan default' : `${n}${unit}`);
