import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.ts';

const PROBE = resolve(import.meta.dirname, 'heap-growth-probe.ts');
const ROOT = resolve(import.meta.dirname, '../..');

const peakMb = async (percent: number): Promise<number> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', PROBE, String(percent)],
    {
      cwd: ROOT,
    },
  );
  return (JSON.parse(stdout.trim().split('\n').at(-1)!) as { peakMb: number }).peakMb;
};

/** Decision 0015: `serve` caps V8's heap growth between major GCs. */
describe('limitHeapGrowth', () => {
  it('keeps the heap of a promoting workload far below what V8 lets it reach on its own', async () => {
    const [own, capped] = await Promise.all([peakMb(0), peakMb(50)]);
    expect(capped).toBeLessThan(own * 0.75);
  }, 60_000);

  it('is configured by PURERANK_HEAP_GROWTH_PERCENT (default 50, 0 = V8 decides)', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(50);
    expect(loadConfig({ PURERANK_HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(loadConfig({ PURERANK_HEAP_GROWTH_PERCENT: '100' }).heapGrowthPercent).toBe(100);
    expect(() => loadConfig({ PURERANK_HEAP_GROWTH_PERCENT: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ PURERANK_HEAP_GROWTH_PERCENT: '5000' })).toThrow(ConfigError);
  });
});
