import { describe, expect, it } from 'vitest';
import { hasSingleThreadedGc, SINGLE_THREADED_GC } from '../../src/main/gc-mode.ts';

describe('hasSingleThreadedGc', () => {
  it('finds the flag as V8 takes it, with - or _, and nothing like it', () => {
    expect(hasSingleThreadedGc([SINGLE_THREADED_GC])).toBe(true);
    expect(hasSingleThreadedGc(['--max-old-space-size=512', '--single_threaded_gc'])).toBe(true);
    expect(hasSingleThreadedGc(['--single-threaded'])).toBe(false);
    expect(hasSingleThreadedGc(['--no-single-threaded-gc'])).toBe(false);
    expect(hasSingleThreadedGc([])).toBe(false);
  });
});
