import { Command, CommanderError } from 'commander';
import { accountsCommand } from '../cli/accounts.ts';
import { importCommand } from '../cli/import-file.ts';
import { keysCommand } from '../cli/keys.ts';
import { migrateCommand } from '../cli/migrate.ts';
import { reportFailure } from '../cli/output.ts';
import { seedCommand } from '../cli/seed.ts';
import { serveCommand } from '../cli/serve.ts';

const program = new Command('purerank')
  .description(
    'PureRank: vendor rankings and batch verification. Configuration comes from the environment (README).',
  )
  .exitOverride();

serveCommand(program);
migrateCommand(program);
importCommand(program);
seedCommand(program);
accountsCommand(program);
keysCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // Commander has already printed usage or the parse error; help and version exit 0.
    process.exitCode = err.exitCode;
  } else {
    process.exitCode = reportFailure(err, Boolean(process.env.DEBUG));
  }
}
