import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { systemClock } from '../core/clock.ts';
import { importJsonLines } from '../core/import/import-data.ts';
import { withContainer } from './context.ts';
import { CliError } from './output.ts';
import { Progress } from './progress.ts';

export function importCommand(program: Command): void {
  program
    .command('import')
    .argument('<file>', 'JSON Lines file (docs/import-format.md); - for standard input')
    .description(
      'Import data: all or nothing, idempotent; every bad line is reported and nothing is written.',
    )
    .action(async (file: string) => {
      let input: NodeJS.ReadableStream;
      if (file === '-') input = process.stdin;
      else {
        try {
          if (!statSync(file).isFile()) throw new Error();
        } catch {
          throw new CliError(`cannot read '${file}': no such file`);
        }
        input = createReadStream(file, { encoding: 'utf8' });
      }
      const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
      await withContainer(async ({ store }) => {
        const parse = new Progress('reading');
        const write = new Progress('writing');
        const result = await importJsonLines(
          lines,
          { store: store.imports, clock: systemClock },
          {
            reason: 'import',
            onProgress: (p) => (p.phase === 'parse' ? parse.update(p.done) : write.update(p.done, p.total)),
          },
        );
        parse.done();
        if (!result.ok) {
          for (const e of result.errors) process.stderr.write(`line ${e.line}: ${e.message}\n`);
          const n = new Set(result.errors.map((e) => e.line)).size;
          throw new CliError(`${n} bad line${n === 1 ? '' : 's'} in ${file}; nothing was imported`);
        }
        write.done();
        const summary = Object.entries(result.counts)
          .map(([t, n]) => `${n} ${t}`)
          .join(', ');
        process.stdout.write(`imported ${result.lines} lines: ${summary || 'nothing'}\n`);
      });
    });
}
