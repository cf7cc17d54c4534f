import { invalidParameter } from '../errors.ts';

/** RFC 5321's limit on a forward path; longer addresses cannot receive mail anyway. */
export const EMAIL_MAX = 254;

/*
 * A deliberately plain shape (local@domain.tld, no spaces, no angle brackets or quotes): the address
 * is an identifier here, never sent to, so rejecting exotic but valid forms costs nothing and keeps
 * it safe to print in a terminal or a page.
 */
const EMAIL_SHAPE =
  /^[a-z0-9.!#$%&*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Trimmed and lower-cased, or null when it is not an address we accept. */
export function normaliseEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  if (email.length === 0 || email.length > EMAIL_MAX) return null;
  if (!EMAIL_SHAPE.test(email)) return null;
  const local = email.slice(0, email.indexOf('@'));
  if (local.length > 64 || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return null;
  return email;
}

/** As normaliseEmail, or a DomainError naming the parameter. */
export function requireEmail(raw: string, parameter = 'email'): string {
  const email = normaliseEmail(raw);
  if (email === null) {
    throw invalidParameter(
      parameter,
      `must be an email address like name@example.com (at most ${EMAIL_MAX} characters).`,
    );
  }
  return email;
}
