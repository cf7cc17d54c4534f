import { DomainError } from '../errors.ts';

/** Characters a key's name may have at most (the dashboard, the CLI and the operator API alike). */
export const KEY_NAME_MAX_LENGTH = 100;

// Names are shown in terminals and pages: a line break or an escape sequence has no place in one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what we refuse
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A key's name as stored, from what a person typed: trimmed, empty = none. The one rule for every
 * way a key is created (createKey, AccountKeys.create).
 */
export function keyName(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const name = raw.trim();
  if (name === '') return null;
  if (name.length > KEY_NAME_MAX_LENGTH)
    throw new DomainError('invalid_parameter', `Key names are at most ${KEY_NAME_MAX_LENGTH} characters.`, {
      parameter: 'name',
    });
  if (CONTROL.test(name))
    throw new DomainError(
      'invalid_parameter',
      'Key names cannot contain control characters (a line break, a tab).',
      {
        parameter: 'name',
      },
    );
  return name;
}
