import { DomainError, notFound } from '../errors.ts';
import { type WriteRecordsDeps, writeRecords } from '../import/write-records.ts';
import { requireActor } from '../operator/actor.ts';
import {
  misplacedLimit,
  misplacedLimitMessage,
  outOfBoundsLimit,
  outOfBoundsMessage,
} from './custom-limits.ts';
import type { Account, Plan } from './model.ts';

/** A change of an account's plan and limits: fields not given are kept; a null limit is the plan's. */
export interface AccountChange {
  plan?: Plan;
  /** Requests per UTC hour on Variant A (custom plan only); null: the plan default. */
  rateLimitA?: number | null;
  /** Requests per rolling 24 h on Variant B (custom plan only); null: the plan default. */
  rateLimitB?: number | null;
}

export interface ChangeAccountDeps extends WriteRecordsDeps {
  accounts: { findByName(name: string): Promise<Account | null> };
}

/**
 * Changes an existing account's plan or limits (operator API `PATCH /accounts/{name}`, CLI
 * `accounts plan`); every key of the account follows on its next request (the write bumps the keys
 * version). An unknown account is `not_found` and nothing is created: the write path upserts, so
 * the account's existence, and its plan when only limits change, are re-checked inside the write.
 * The same transaction records the change in the operator decision log (`account.plan_changed`,
 * core/operator/actions.ts): who, the account before, and the change asked.
 */
export async function changeAccount(
  deps: ChangeAccountDeps,
  name: string,
  change: AccountChange,
  actor: string,
): Promise<{ previous: Account; account: Account }> {
  requireActor(actor);
  if (change.plan === undefined && change.rateLimitA === undefined && change.rateLimitB === undefined) {
    throw new DomainError(
      'invalid_parameter',
      'An account change must set at least one of plan, rateLimitA, rateLimitB.',
    );
  }
  const outside = outOfBoundsLimit(change);
  if (outside) {
    throw new DomainError('invalid_parameter', `${outOfBoundsMessage(outside)}.`, { parameter: outside });
  }
  const previous = await deps.accounts.findByName(name);
  if (!previous) throw notFound('Account', name);
  const plan = change.plan ?? previous.plan;
  const misplaced = misplacedLimit(plan, change);
  if (misplaced) {
    throw new DomainError('invalid_parameter', `${misplacedLimitMessage(misplaced, plan)}.`, {
      parameter: misplaced,
    });
  }
  const record: Record<string, unknown> = { type: 'account', name, plan };
  if (change.rateLimitA !== undefined) record.rateLimitA = change.rateLimitA;
  if (change.rateLimitB !== undefined) record.rateLimitB = change.rateLimitB;
  // (The import path clears the limits of an account that is not custom: custom-limits.ts.)
  await writeRecords(deps, [record], {
    reason: `account updated by ${actor}`,
    // A limits-only change carries the plan it read: a plan changed meanwhile must not be undone.
    expect: { accounts: [change.plan === undefined ? { name, plan: previous.plan } : { name }] },
    log: () => [
      {
        actor,
        action: 'account.plan_changed',
        vendorSlug: null,
        subject: name,
        reason: null,
        details: {
          from: { plan: previous.plan, rateLimitA: previous.rateLimitA, rateLimitB: previous.rateLimitB },
          to: {
            plan,
            ...(change.rateLimitA !== undefined ? { rateLimitA: change.rateLimitA } : {}),
            ...(change.rateLimitB !== undefined ? { rateLimitB: change.rateLimitB } : {}),
          },
        },
      },
    ],
  });
  const account = await deps.accounts.findByName(name);
  if (!account) throw notFound('Account', name);
  return { previous, account };
}
