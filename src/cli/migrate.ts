import type { Command } from 'commander';
import { withContainer } from './context.ts';

export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Bring the database schema to the newest version (also done at start-up).')
    .action(async () => {
      await withContainer(
        async ({ store }) => {
          const applied = await store.migrate();
          process.stdout.write(
            applied.length ? `applied: ${applied.join(', ')}\n` : 'schema is up to date\n',
          );
        },
        { migrate: false },
      );
    });
}
