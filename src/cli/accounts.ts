import type { Command } from 'commander';
import { RATE_LIMIT_BOUNDS } from '../core/accounts/custom-limits.ts';
import { createAccount } from '../core/accounts/manage-accounts.ts';
import { PLANS, type Plan } from '../core/accounts/model.ts';
import { withContainer } from './context.ts';
import { CliError, positiveInt } from './output.ts';

export function accountsCommand(program: Command): void {
  const accounts = program.command('accounts').description('Manage customer accounts.');
  accounts
    .command('create')
    .argument('<name>', 'account name')
    .requiredOption('--plan <plan>', `one of ${PLANS.join(', ')}`)
    .option('--rate-limit-a <n>', 'custom plan: requests per UTC hour on /v1')
    .option('--rate-limit-b <n>', 'custom plan: requests per rolling 24 h on /api/v1')
    .description('Create an account.')
    .action(async (name: string, o: { plan: string; rateLimitA?: string; rateLimitB?: string }) => {
      if (!(PLANS as readonly string[]).includes(o.plan)) {
        throw new CliError(`--plan must be one of ${PLANS.join(', ')}, got '${o.plan}'`);
      }
      // The bounds of custom-limits.ts, checked here too so the message names the flag.
      const { rateLimitA: a, rateLimitB: b } = RATE_LIMIT_BOUNDS;
      const rateLimitA =
        o.rateLimitA === undefined ? null : positiveInt('--rate-limit-a', o.rateLimitA, a.max);
      const rateLimitB =
        o.rateLimitB === undefined ? null : positiveInt('--rate-limit-b', o.rateLimitB, b.max);
      await withContainer(async ({ store }) => {
        const a = await createAccount(store, { name, plan: o.plan as Plan, rateLimitA, rateLimitB });
        process.stdout.write(`created account ${a.name} (plan ${a.plan})\n`);
      });
    });
  accounts
    .command('list')
    .description('List accounts.')
    .action(async () => {
      await withContainer(async ({ store }) => {
        for (const a of await store.accounts.list())
          process.stdout.write(`${a.name}\t${a.plan}\t${a.createdAt}\n`);
      });
    });
}
