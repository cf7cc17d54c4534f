import type { Command } from 'commander';
import { withContainer } from './context.ts';
import { actorOf, actorOption, out, scoreChangeLines } from './operator-io.ts';

export function scoresCommand(program: Command): void {
  const scores = program.command('scores').description('Vendor scores.');
  actorOption(
    scores
      .command('recompute')
      .description(
        'Recompute every vendor from the evidence in one transaction (after a method change, or as time ' +
          'ages the evidence). Changed scores get a history entry and a score.changed event.',
      ),
  ).action(async (o: { as?: string }) => {
    const actor = actorOf(o);
    await withContainer(async ({ operator: op }) => {
      const r = await op.recompute(actor);
      const n = r.changes.length;
      out(
        `recomputed ${r.vendors} vendor${r.vendors === 1 ? '' : 's'}: ${r.updated} updated, ` +
          `${n} score${n === 1 ? '' : 's'} changed`,
      );
      if (n > 0) {
        for (const line of scoreChangeLines(
          r.changes.map((c) => ({ vendorSlug: c.slug, previous: c.previous, next: c.next })),
        ))
          out(line);
      }
    });
  });
}
