import { invalidParameter } from '../errors.ts';

/**
 * Who acts in an operator write: the operator API's `X-Operator`, the CLI's `--as`, the console's
 * signed-in email. One rule for all of them, so a name one surface accepts is never refused by
 * another: 1 to 254 printable ASCII characters. 254 is an email address's limit (RFC 5321, as
 * `core/users/emails.ts`), so every operator the console signs in fits; printable ASCII keeps the
 * name safe in a header, a terminal and a page.
 */
export const ACTOR_MAX = 254;

/** The same rule as a pattern, for schemas (a header's, an import record's `setBy`). */
export const ACTOR_PATTERN = '^[ -~]+$';

const SHAPE = new RegExp(ACTOR_PATTERN);

/** Whether `name` passes the rule. */
export const isActor = (name: string): boolean =>
  name.length >= 1 && name.length <= ACTOR_MAX && SHAPE.test(name);

/** The actor as given, or `invalid_parameter` naming `actor` before anything is written. */
export function requireActor(name: string): string {
  if (!isActor(name)) {
    throw invalidParameter('actor', `must be 1 to ${ACTOR_MAX} printable ASCII characters.`);
  }
  return name;
}
