import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const PROBE = resolve(import.meta.dirname, 'tick-shape-probe.ts');

/**
 * Decision 0014: the service holds one of Node's tick queue entries so V8 keeps their hidden class.
 * Checked in a child process because it needs V8 flags (intrinsics and a callable GC).
 */
describe('pinTickObjectShape', () => {
  it('holds a real tick entry whose hidden class survives major GCs', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', PROBE],
      { cwd: resolve(import.meta.dirname, '../..') },
    );
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(result).toEqual({
      pinnedNow: true,
      again: true,
      stillFirst: true,
      keys: ['Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)', 'callback', 'args'],
      sameMapAfterGc: true,
    });
  });
});
