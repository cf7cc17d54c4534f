import type { Command } from 'commander';
import { withContainer } from './context.ts';
import { actorOf, actorOption, out, printOutcome, wholeNumber } from './operator-io.ts';

export function reviewsCommand(program: Command): void {
  const reviews = program.command('reviews').description('Add customer reviews and vendor replies.');

  actorOption(reviews.command('add'))
    .requiredOption('--vendor <vendor>', 'vendor slug')
    .requiredOption('--rating <n>', 'stars, 1 to 5')
    .requiredOption('--title <text>', 'title (at most 200 characters)')
    .requiredOption('--body <text>', 'text (at most 10,000 characters)')
    .requiredOption('--author <name>', 'who wrote it')
    .option('--id <id>', 'review id (letters, digits, _ . : -); default: a new rev_… id')
    .option('--created-at <time>', 'ISO 8601 time it was written, not in the future (default: now)')
    .description("Add a review. It counts in the vendor's sentiment and experience pillars at once.")
    .action(
      async (o: {
        vendor: string;
        rating: string;
        title: string;
        body: string;
        author: string;
        id?: string;
        createdAt?: string;
        as?: string;
      }) => {
        const rating = wholeNumber('--rating', o.rating, 1, 5);
        await withContainer(async ({ operator: op }) => {
          const r = await op.addReview(
            {
              vendorSlug: o.vendor,
              rating,
              title: o.title,
              body: o.body,
              author: o.author,
              ...(o.id !== undefined ? { id: o.id } : {}),
              ...(o.createdAt !== undefined ? { createdAt: o.createdAt } : {}),
            },
            actorOf(o),
          );
          out(`added review ${r.id} to ${o.vendor} (${rating}★)`);
          printOutcome(r);
        });
      },
    );

  actorOption(reviews.command('reply'))
    .argument('<review>', 'review id')
    .requiredOption('--account <name>', 'the account that owns (has claimed) the reviewed vendor')
    .requiredOption('--body <text>', 'text (1 to 10,000 characters)')
    .option('--created-at <time>', 'ISO 8601 time it was written, not in the future (default: now)')
    .description('Reply to a review for its vendor. One reply per review, by the owning account.')
    .action(
      async (reviewId: string, o: { account: string; body: string; createdAt?: string; as?: string }) => {
        await withContainer(async ({ operator: op }) => {
          const r = await op.reply(
            reviewId,
            {
              account: o.account,
              body: o.body,
              ...(o.createdAt !== undefined ? { createdAt: o.createdAt } : {}),
            },
            actorOf(o),
          );
          out(`replied to review ${reviewId} as ${o.account}`);
          printOutcome(r);
        });
      },
    );
}
