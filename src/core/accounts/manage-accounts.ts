import { DomainError } from '../errors.ts';
import type { AccountStore } from '../ports.ts';
import {
  misplacedLimit,
  misplacedLimitMessage,
  outOfBoundsLimit,
  outOfBoundsMessage,
} from './custom-limits.ts';
import type { Account, Plan } from './model.ts';

export interface AccountDeps {
  accounts: AccountStore;
}

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/;

export async function createAccount(
  deps: AccountDeps,
  input: { name: string; plan: Plan; rateLimitA?: number | null; rateLimitB?: number | null },
): Promise<Account> {
  if (!ACCOUNT_NAME.test(input.name)) {
    throw new DomainError(
      'invalid_parameter',
      'Account names are 1-100 letters, digits, spaces, dots, dashes or underscores.',
    );
  }
  const outside = outOfBoundsLimit(input);
  if (outside) {
    throw new DomainError('invalid_parameter', `${outOfBoundsMessage(outside)}.`, { parameter: outside });
  }
  const misplaced = misplacedLimit(input.plan, input);
  if (misplaced) {
    throw new DomainError('invalid_parameter', `${misplacedLimitMessage(misplaced, input.plan)}.`, {
      parameter: misplaced,
    });
  }
  if (await deps.accounts.findByName(input.name)) {
    throw new DomainError('conflict', `Account '${input.name}' already exists.`);
  }
  return deps.accounts.create(input);
}
