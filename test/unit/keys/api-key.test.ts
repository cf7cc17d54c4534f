import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DISPLAY_PREFIX_LENGTH,
  displayPrefix,
  generateKey,
  hashKey,
  isWellFormedKey,
  KEY_PREFIX,
} from '../../../src/core/keys/api-key.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const body = (n: number, ch = 'a') => ch.repeat(n);

describe('generateKey', () => {
  const keys = Array.from({ length: 1000 }, () => generateKey());

  it('has the documented format: prk_live_ and 32 base62 characters', () => {
    for (const k of keys) {
      expect(k.key).toMatch(/^prk_live_[0-9A-Za-z]{32}$/);
      expect(isWellFormedKey(k.key)).toBe(true);
    }
  });

  it('returns the SHA-256 hex of the key, its display prefix and an opaque id', () => {
    for (const k of keys.slice(0, 50)) {
      expect(k.hash).toBe(createHash('sha256').update(k.key).digest('hex'));
      expect(k.prefix).toBe(k.key.slice(0, KEY_PREFIX.length + 4));
      expect(k.prefix).toHaveLength(DISPLAY_PREFIX_LENGTH);
      expect(k.id).toMatch(/^key_[0-9a-f]{20}$/);
      expect(k.id).not.toContain(k.key.slice(KEY_PREFIX.length));
    }
  });

  it('never repeats a key, hash or id over 1000 keys', () => {
    expect(new Set(keys.map((k) => k.key)).size).toBe(1000);
    expect(new Set(keys.map((k) => k.hash)).size).toBe(1000);
    expect(new Set(keys.map((k) => k.id)).size).toBe(1000);
  });

  it('uses every base62 character, roughly uniformly', () => {
    const counts = new Map<string, number>();
    for (const k of keys)
      for (const ch of k.key.slice(KEY_PREFIX.length)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...BASE62].sort());
    // 32 000 characters over 62 symbols: about 516 each (σ ≈ 22.5). ±40% is > 9σ, so this never flakes,
    // yet a modulo bias (bytes 248..255 folding onto 0..7) or a missing range would show.
    const expected = (keys.length * 32) / 62;
    for (const [ch, n] of counts) {
      expect(n, `character ${ch}`).toBeGreaterThan(expected * 0.6);
      expect(n, `character ${ch}`).toBeLessThan(expected * 1.4);
    }
    // Chi-square over 61 degrees of freedom: the 99.99th percentile is about 112.
    const chi = [...counts.values()].reduce((s, n) => s + (n - expected) ** 2 / expected, 0);
    expect(chi).toBeLessThan(130);
  });
});

describe('hashKey', () => {
  it('is lower-case SHA-256 hex', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashKey('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hashKey(`${KEY_PREFIX}${body(32)}`)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('depends on every character (case matters)', () => {
    expect(hashKey(`${KEY_PREFIX}${body(32, 'a')}`)).not.toBe(hashKey(`${KEY_PREFIX}${body(32, 'A')}`));
  });
});

describe('isWellFormedKey', () => {
  it.each([
    ['32 base62 characters', `${KEY_PREFIX}${body(32)}`, true],
    ['digits and both cases', `${KEY_PREFIX}0123456789abcdefABCDEFxyzXYZ0000`, true],
    ['31 characters', `${KEY_PREFIX}${body(31)}`, false],
    ['33 characters', `${KEY_PREFIX}${body(33)}`, false],
    ['empty body', KEY_PREFIX, false],
    ['empty string', '', false],
    ['test-mode prefix', `prk_test_${body(32)}`, false],
    ['upper-case prefix', `PRK_LIVE_${body(32)}`, false],
    ['prefix without underscore', `prk_live${body(33)}`, false],
    ['no prefix', body(41), false],
    ['leading space', ` ${KEY_PREFIX}${body(31)}`, false],
    ['trailing newline', `${KEY_PREFIX}${body(32)}\n`, false],
    ['a dash', `${KEY_PREFIX}${body(31)}-`, false],
    ['an underscore', `${KEY_PREFIX}${body(31)}_`, false],
    ['a plus (base64)', `${KEY_PREFIX}${body(31)}+`, false],
    ['a non-ASCII letter', `${KEY_PREFIX}${body(31)}é`, false],
    ['a full-width digit', `${KEY_PREFIX}${body(31)}１`, false],
  ])('%s → %s', (_name, key, ok) => {
    expect(isWellFormedKey(key)).toBe(ok);
  });
});

describe('displayPrefix', () => {
  it('keeps the prefix and four characters of the body', () => {
    expect(displayPrefix(`${KEY_PREFIX}Ab12${body(28)}`)).toBe('prk_live_Ab12');
  });
});
