import { describe, expect, it } from 'vitest';
import { hasSingleThreadedGc, SINGLE_THREADED_GC } from '../../src/main/gc-mode.ts';

describe('hasSingleThreadedGc', () => {
  it('reads the flags as V8 does: - or _, --single-threaded implies it, the last one wins', () => {
    expect(hasSingleThreadedGc([SINGLE_THREADED_GC])).toBe(true);
    expect(hasSingleThreadedGc(['--max-old-space-size=512', '--single_threaded_gc'])).toBe(true);
    expect(hasSingleThreadedGc(['--single-threaded'])).toBe(true);
    expect(hasSingleThreadedGc(['--no-single-threaded-gc'])).toBe(false);
    expect(hasSingleThreadedGc([SINGLE_THREADED_GC, '--no-single-threaded-gc'])).toBe(false);
    expect(hasSingleThreadedGc(['--no-single-threaded-gc', SINGLE_THREADED_GC])).toBe(true);
    expect(hasSingleThreadedGc(['--single-threaded-gc-foo', '--threaded-gc'])).toBe(false);
    expect(hasSingleThreadedGc([])).toBe(false);
  });
});
