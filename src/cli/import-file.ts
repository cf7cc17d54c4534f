import { createReadStream, statSync } from 'node:fs';
import type { Command } from 'commander';
import { importJsonLineBatches } from '../core/import/import-data.ts';
import { decodeJsonLineBatches } from '../core/import/json-lines.ts';
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
      if (file !== '-') {
        try {
          if (!statSync(file).isFile()) throw new Error();
        } catch {
          throw new CliError(`cannot read '${file}': no such file`);
        }
      }
      await withContainer(async ({ store, clock }) => {
        // The input is opened only now, once the store is, and read as an async iterable, which
        // holds its data until it is asked for. (A readline interface made before an async store
        // opening — PostgreSQL's — emitted its lines and its 'close' to nobody, and the import
        // waited forever for lines that had already gone by.) Raw bytes, not text: the core
        // decodes them, so invalid UTF-8 is an error with a line number, not a U+FFFD.
        const input: AsyncIterable<Uint8Array> = file === '-' ? process.stdin : createReadStream(file);
        const parse = new Progress('reading');
        const write = new Progress('writing');
        const result = await importJsonLineBatches(
          decodeJsonLineBatches(input),
          { store: store.imports, clock },
          {
            reason: 'import',
            onProgress: (p) => (p.phase === 'parse' ? parse.update(p.done) : write.update(p.done, p.total)),
          },
        );
        parse.done();
        if (!result.ok) {
          for (const e of result.errors) process.stderr.write(`line ${e.line}: ${e.message}\n`);
          // The parser keeps only the first errors (a file of millions of bad lines must not hold
          // them all); the rest are counted.
          const unlisted = result.errorCount - result.errors.length;
          if (unlisted > 0) process.stderr.write(`… and ${unlisted} more errors, not listed\n`);
          // Lines and errors are counted apart: one line can break several rules (its references),
          // and the HTTP report says the same (a message counting lines, error_count the errors).
          const n = result.badLines;
          const k = result.errorCount;
          const errors = k === n ? '' : ` (${k} errors)`;
          throw new CliError(`${n} bad line${n === 1 ? '' : 's'}${errors} in ${file}; nothing was imported`);
        }
        write.done();
        const summary = Object.entries(result.counts)
          .map(([t, n]) => `${n} ${t}`)
          .join(', ');
        process.stdout.write(`imported ${result.lines} lines: ${summary || 'nothing'}\n`);
      });
    });
}
