import { describe, expect, it } from 'vitest';
import { tokenMatches } from '../../../src/http/pages/cross-site.ts';
import { safeNext } from '../../../src/http/pages/page-context.ts';

describe('where sign-in may send you next', () => {
  it.each([
    '/dashboard',
    '/dashboard/keys',
    '/dashboard/webhooks/ep_0123abcd',
    '/console/vendors/aurora-peptide-works',
    '/console/events?type=score.changed&before=120',
    '/dashboard/usage?key=key_abc',
  ])('keeps %s', (path) => expect(safeNext(path)).toBe(path));

  it.each([
    '//evil.example',
    '/\\evil.example',
    'https://evil.example/dashboard',
    '/dashboard/../docs',
    '/dashboard/%2e%2e/%2e%2e/docs', // found by the hostile test: a browser resolves it to /docs
    '/dashboard/.%2e/.%2e/healthz',
    '/dashboard/%2E%2E/x',
    '/dashboard//evil.example',
    '/docs',
    '/dashboardx',
    '/dashboard/keys\r\nSet-Cookie: x=1',
    '/dashboard?next=<script>',
    'x'.repeat(600),
    42,
    undefined,
  ])('refuses %s', (raw) => expect(safeNext(raw)).toBeNull());
});

describe('the form token', () => {
  const token = 'A'.repeat(43);
  it('matches itself only', () => {
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(`${'A'.repeat(42)}B`, token)).toBe(false);
    expect(tokenMatches('', token)).toBe(false);
    expect(tokenMatches(['x'], token)).toBe(false);
    expect(tokenMatches(undefined, token)).toBe(false);
  });

  it('a value of the same length in characters but not in bytes is a mismatch, not an exception (hostile test F6)', () => {
    expect(tokenMatches('é'.repeat(43), token)).toBe(false);
  });
});
