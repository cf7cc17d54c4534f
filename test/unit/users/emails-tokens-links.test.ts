import { describe, expect, it } from 'vitest';
import { normaliseEmail, requireEmail } from '../../../src/core/users/emails.ts';
import { LINK_PATH, linkBase, linkUrl } from '../../../src/core/users/links.ts';
import { hashToken, isTokenShaped, newToken } from '../../../src/core/users/tokens.ts';

describe('emails', () => {
  it('trims and lower-cases', () => {
    expect(normaliseEmail('  Ann.Lee+Dash@Example.COM \n')).toBe('ann.lee+dash@example.com');
    expect(normaliseEmail('owner@demo.purerank.test')).toBe('owner@demo.purerank.test');
  });

  it.each([
    '',
    'plain',
    '@example.com',
    'ann@',
    'ann@localhost',
    'ann lee@example.com',
    'ann@exa mple.com',
    '<ann@example.com>',
    '"ann"@example.com',
    '.ann@example.com',
    'an..n@example.com',
    'ann@-example.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(250)}.com`,
    'ann@example.com\u0000',
  ])('refuses %j', (raw) => {
    expect(normaliseEmail(raw)).toBeNull();
    expect(() => requireEmail(raw)).toThrow(/^Parameter 'email' must be an email address/);
  });

  it('names the parameter it was given', () => {
    expect(() => requireEmail('x', 'owner')).toThrow(/^Parameter 'owner'/);
  });
});

describe('tokens', () => {
  it('are 43 base64url characters (32 random bytes), all different, stored as hex SHA-256', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const t = newToken();
      expect(isTokenShaped(t)).toBe(true);
      seen.add(t);
    }
    expect(seen.size).toBe(1000);
    const t = newToken();
    expect(hashToken(t)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(t)).toBe(hashToken(t));
    expect(hashToken(t)).not.toContain(t);
  });

  it('anything not shaped like one is not looked up', () => {
    for (const bad of ['', 'short', `${newToken()}x`, `${newToken().slice(0, 42)}=`, '../../etc/passwd'])
      expect(isTokenShaped(bad)).toBe(false);
  });
});

describe('links', () => {
  it('point at the welcome page on the base, whatever slashes the base ends with', () => {
    expect(LINK_PATH).toBe('/dashboard/welcome/');
    expect(linkUrl('https://purerank.example', 'T0K')).toBe('https://purerank.example/dashboard/welcome/T0K');
    expect(linkUrl('https://purerank.example//', 'T0K')).toBe(
      'https://purerank.example/dashboard/welcome/T0K',
    );
  });

  it('use the public URL when set, else the local base', () => {
    expect(linkBase('https://purerank.example', 'http://localhost:3000')).toBe('https://purerank.example');
    expect(linkBase(null, 'http://localhost:3000')).toBe('http://localhost:3000');
  });
});
