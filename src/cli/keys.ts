import type { Command } from 'commander';
import { createKey, listKeys, revokeKey } from '../core/keys/manage-keys.ts';
import { withContainer } from './context.ts';

export function keysCommand(program: Command): void {
  const keys = program.command('keys').description('Manage API keys (stored hashed; shown once).');
  keys
    .command('create')
    .argument('<account>', 'account name')
    .option('--name <label>', 'a label for the key')
    .description('Create a key. The key alone is printed on the last line of stdout.')
    .action(async (account: string, o: { name?: string }) => {
      await withContainer(async ({ store }) => {
        const { key, info } = await createKey(store, account, o.name ?? null);
        process.stdout.write(
          `created ${info.id} for ${account}; store it now, it is not shown again:\n${key}\n`,
        );
      });
    });
  keys
    .command('list')
    .argument('<account>', 'account name')
    .description('List the keys of an account (id, display prefix, label, created, revoked).')
    .action(async (account: string) => {
      await withContainer(async ({ store }) => {
        for (const k of await listKeys(store, account)) {
          const state = k.revokedAt ? `revoked ${k.revokedAt}` : 'active';
          process.stdout.write(`${k.id}\t${k.prefix}…\t${k.name ?? ''}\t${k.createdAt}\t${state}\n`);
        }
      });
    });
  keys
    .command('revoke')
    .argument('<key>', 'key id, display prefix, or the full key')
    .description('Revoke a key: it fails with 401 on its next request.')
    .action(async (ref: string) => {
      await withContainer(async ({ store }) => {
        const k = await revokeKey(store, ref);
        process.stdout.write(`revoked ${k.id} (${k.prefix}…)\n`);
      });
    });
}
