import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { localUrl } from '../config/config.ts';
import { sampleFacts } from '../core/coa/sample.ts';
import { withContainer } from './context.ts';
import { cell, jsonOption, out, printJson, table } from './operator-io.ts';

export function coaCommand(program: Command): void {
  const coa = program
    .command('coa')
    .description('Certificates of analysis: a sample to try the upload with.');

  coa
    .command('sample')
    .argument('<vendor>', 'vendor slug')
    .argument('[batch]', "batch id (default: the vendor's newest approved batch)")
    .option('--out <file>', 'where to write the PDF', 'coa-sample.pdf')
    .description(
      'Write a CoA PDF of an approved batch on file, as its lab would print it: uploading it to POST /v1/coa/verify answers `verified`.',
    )
    .action(async (vendor: string, batch: string | undefined, o: { out: string }) => {
      await withContainer(async (c) => {
        const s = await sampleFacts({ operator: c.store.operator, coa: c.store.coa }, vendor, batch);
        await writeFile(o.out, await c.renderCoa(s.facts));
        out(
          `wrote ${o.out}: batch ${s.facts.batch} of ${s.vendorSlug}, ${s.facts.compound}, ${s.facts.purity}%, ${s.facts.lab}`,
        );
        out(
          `try: curl -H "Authorization: Bearer $KEY" -F file=@${o.out} -F peptide=${s.peptideSlug} -F vendor=${s.vendorSlug} ${localUrl(c.config)}/v1/coa/verify`,
        );
      });
    });

  jsonOption(
    program
      .command('labs')
      .description('The lab registry that CoA verification matches documents against.')
      .command('list')
      .description('Every lab: slug, name, whether it is trusted or flagged, its verification page.'),
  ).action(async (o: { json?: boolean }) => {
    await withContainer(async (c) => {
      const labs = [...(await c.store.coa.directory()).labs].sort((a, b) => a.slug.localeCompare(b.slug));
      if (o.json) {
        printJson(labs);
        return;
      }
      if (labs.length === 0) {
        out('no labs (import `lab` records: docs/import-format.md)');
        return;
      }
      out(
        table(
          ['SLUG', 'NAME', 'TRUSTED', 'FLAGGED', 'VERIFY URL'],
          labs.map((l) => [
            l.slug,
            l.name,
            l.trusted ? 'yes' : 'no',
            l.flagged ? 'yes' : 'no',
            cell(l.verifyUrl),
          ]),
        ),
      );
    });
  });
}
