import type { Command } from 'commander';
import { OVERRIDE_FIELDS } from '../core/import/records.ts';
import { withContainer } from './context.ts';
import {
  actorOf,
  actorOption,
  choice,
  jsonOption,
  out,
  printJson,
  printOutcome,
  reasonText,
  table,
  wholeNumber,
} from './operator-io.ts';

const REASON_MAX = 500;

export function overridesCommand(program: Command): void {
  const overrides = program
    .command('overrides')
    .description(
      `Operator overrides of a pillar (${OVERRIDE_FIELDS.filter((f) => f !== 'score').join(', ')}) or of the composite score.`,
    );

  jsonOption(
    overrides
      .command('list')
      .option('--vendor <vendor>', 'only this vendor')
      .description('List overrides with who set them, when and why.'),
  ).action(async (o: { vendor?: string; json?: boolean }) => {
    await withContainer(async ({ operator: op }) => {
      // An unknown vendor is an error, not an empty list: a typo should not look like "no overrides".
      if (o.vendor !== undefined) await op.vendor(o.vendor);
      const list = await op.listOverrides(o.vendor);
      if (o.json) printJson(list);
      else if (list.length === 0) out('no overrides');
      else
        out(
          table(
            ['VENDOR', 'FIELD', 'VALUE', 'SET BY', 'SET AT', 'REASON'],
            list.map((e) => [e.vendorSlug, e.field, String(e.value), e.setBy, e.setAt, e.reason]),
          ),
        );
    });
  });

  actorOption(
    overrides
      .command('set')
      .argument('<vendor>', 'vendor slug')
      .argument('<field>', OVERRIDE_FIELDS.join(', '))
      .argument('<value>', 'whole number 0 to 100')
      .requiredOption('--reason <text>', `why (required, at most ${REASON_MAX} characters)`)
      .description(
        'Set (or replace) an override. A pillar override replaces the computed pillar; a score override pins the composite. Scores are recomputed at once.',
      ),
  ).action(async (slug: string, rawField: string, rawValue: string, o: { reason: string; as?: string }) => {
    const field = choice('field', rawField, OVERRIDE_FIELDS);
    const value = wholeNumber('value', rawValue, 0, 100);
    const reason = reasonText(o.reason);
    const actor = actorOf(o);
    await withContainer(async ({ operator: op }) => {
      const r = await op.setOverride(slug, field, value, reason, actor);
      out(`${slug}: ${field} overridden to ${value} by ${actor}`);
      printOutcome(r);
    });
  });

  actorOption(
    overrides
      .command('clear')
      .argument('<vendor>', 'vendor slug')
      .argument('<field>', OVERRIDE_FIELDS.join(', '))
      .option('--reason <text>', `why (optional, at most ${REASON_MAX} characters; kept in the decision log)`)
      .description('Remove an override: the computed value applies again.'),
  ).action(async (slug: string, rawField: string, o: { reason?: string; as?: string }) => {
    const field = choice('field', rawField, OVERRIDE_FIELDS);
    const reason = o.reason === undefined ? undefined : reasonText(o.reason);
    const actor = actorOf(o);
    await withContainer(async ({ operator: op }) => {
      const r = await op.clearOverride(slug, field, actor, reason);
      out(`${slug}: ${field} override cleared by ${actor}`);
      printOutcome(r);
    });
  });
}
