import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/core/errors.ts';
import {
  checkPassword,
  dummyVerify,
  hashPassword,
  needsRehash,
  PASSWORD_MAX,
  PASSWORD_MIN,
  SCRYPT_PARAMS,
  verifyPassword,
} from '../../../src/core/users/passwords.ts';

describe('passwords', () => {
  it('hashes to a self-describing scrypt string with a fresh salt each time', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
  });

  it('verifies the right password and refuses a wrong, a near and an empty one', async () => {
    const h = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', h)).toBe(true);
    expect(await verifyPassword('correct horse batterY', h)).toBe(false);
    expect(await verifyPassword('correct horse battery ', h)).toBe(false);
    expect(await verifyPassword('', h)).toBe(false);
  });

  it('treats canonically equal Unicode the same (NFC), whatever the keyboard sent', async () => {
    const composed = 'caf\u00e9-p\u00e2ssword-1';
    const decomposed = 'cafe\u0301-pa\u0302ssword-1';
    const h = await hashPassword(composed);
    expect(await verifyPassword(decomposed, h)).toBe(true);
  });

  it('verifies a hash made with other parameters (they are read from the hash), and says it needs a rehash', async () => {
    const weak = await hashPassword('older password!', { N: 1024, r: 8, p: 1 });
    expect(weak.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('older password!', weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword('current password'))).toBe(false);
  });

  it('a malformed or hostile hash matches nothing (its parameters are never used beyond the limits)', async () => {
    for (const bad of [
      '',
      'plain',
      'scrypt$32768$8$1$salt',
      'bcrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      // N = 2^30 would ask for 1 TiB of memory.
      'scrypt$1073741824$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      expect(await verifyPassword('whatever password', bad)).toBe(false);
    }
  });

  it('the dummy verify takes about as long as a real one (no timing difference for unknown emails)', async () => {
    const h = await hashPassword('correct horse battery');
    const time = async (f: () => Promise<unknown>) => {
      const t = performance.now();
      for (let i = 0; i < 4; i++) await f();
      return performance.now() - t;
    };
    const real = await time(() => verifyPassword('wrong password here', h));
    const dummy = await time(() => dummyVerify('wrong password here'));
    expect(dummy / real).toBeGreaterThan(0.33);
    expect(dummy / real).toBeLessThan(3);
    expect(await dummyVerify('correct horse battery')).toBe(false);
  });

  it(`accepts ${PASSWORD_MIN} to ${PASSWORD_MAX} characters, counted as a person counts them`, () => {
    expect(() => checkPassword('a'.repeat(PASSWORD_MIN))).not.toThrow();
    expect(() => checkPassword('a'.repeat(PASSWORD_MAX))).not.toThrow();
    // 11 emoji are 22 UTF-16 units but 11 characters: too short.
    for (const bad of [
      '',
      'a'.repeat(PASSWORD_MIN - 1),
      '😀'.repeat(PASSWORD_MIN - 1),
      'a'.repeat(PASSWORD_MAX + 1),
    ]) {
      let err: unknown;
      try {
        checkPassword(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('invalid_parameter');
      expect((err as DomainError).details).toEqual({ parameter: 'password' });
      expect((err as DomainError).message).toMatch(/^Parameter 'password' must have at (least|most)/);
    }
  });

  it('uses the documented cost', () => {
    expect(SCRYPT_PARAMS).toEqual({ N: 32768, r: 8, p: 1 });
  });
});
