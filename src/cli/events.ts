import type { Command } from 'commander';
import { EVENT_TYPES, type EventQuery } from '../core/events/model.ts';
import { withContainer } from './context.ts';
import { choice, jsonOption, out, printJson, table, wholeNumber } from './operator-io.ts';

const LIMIT_MAX = 1000;

export function eventsCommand(program: Command): void {
  const events = program
    .command('events')
    .description('The outbox: events written with the change they describe (webhook delivery reads it).');
  jsonOption(
    events
      .command('list')
      .option('--after <seq>', 'only events after this sequence number (page on with the last seq seen)')
      .option('--type <type>', EVENT_TYPES.join(', '))
      .option('--vendor <vendor>', 'only events of this vendor')
      .option('--limit <n>', `at most this many (1 to ${LIMIT_MAX})`, '100')
      .description('List events, oldest first.'),
  ).action(async (o: { after?: string; type?: string; vendor?: string; limit: string; json?: boolean }) => {
    const q: EventQuery = { limit: wholeNumber('--limit', o.limit, 1, LIMIT_MAX) };
    if (o.after !== undefined) q.after = wholeNumber('--after', o.after, 0, Number.MAX_SAFE_INTEGER);
    if (o.type !== undefined) q.type = choice('--type', o.type, EVENT_TYPES);
    if (o.vendor !== undefined) q.vendorSlug = o.vendor;
    await withContainer(async ({ operator: op }) => {
      // A typo in --vendor should fail, not look like a vendor without events.
      if (o.vendor !== undefined) await op.vendor(o.vendor);
      const list = await op.events(q);
      if (o.json) printJson(list);
      else if (list.length === 0) out('no events');
      else
        out(
          table(
            ['SEQ', 'CREATED', 'TYPE', 'VENDOR', 'DATA'],
            list.map((e) => {
              const { vendor_slug: _, ...data } = e.data;
              return [String(e.seq), e.createdAt, e.type, e.vendorSlug, JSON.stringify(data)];
            }),
          ),
        );
    });
  });
}
