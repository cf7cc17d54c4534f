import { describe, expect, it } from 'vitest';
import { COA_FORM_OVERHEAD_BYTES, ConfigError, DEFAULTS, loadConfig } from '../../../src/config/config.ts';

describe('CoA settings', () => {
  it('defaults: 10 MB files, files not kept, 5 s, 256 MB heap, 50 pages, 128 MB inflated, 64 MB in flight', () => {
    expect(loadConfig({}).coa).toEqual(DEFAULTS.coa);
    expect(DEFAULTS.coa).toMatchObject({
      maxBytes: 10_000_000,
      storeFiles: false,
      fileDir: './data/coa-files',
      workers: null,
      timeLimitMs: 5000,
      heapLimitMb: 256,
      maxPages: 50,
      maxInflatedBytes: 128 * 2 ** 20,
      maxInflightBytes: 64 * 2 ** 20,
      maxOpenSubmissions: 100,
    });
  });

  it('reads every variable', () => {
    const c = loadConfig({
      COA_MAX_BYTES: '2000000',
      COA_STORE_FILES: 'true',
      COA_FILE_DIR: '/var/lib/purerank/coa',
      COA_WORKERS: '3',
      COA_TIME_LIMIT_MS: '2500',
      COA_HEAP_MB: '128',
      COA_MAX_PAGES: '20',
      COA_MAX_INFLATED_MB: '32',
      COA_INFLIGHT_MB: '16',
      COA_MAX_OPEN_SUBMISSIONS: '7',
      COA_STORE_THREAD: 'false',
    }).coa;
    expect(c).toEqual({
      maxBytes: 2_000_000,
      storeFiles: true,
      fileDir: '/var/lib/purerank/coa',
      workers: 3,
      timeLimitMs: 2500,
      heapLimitMb: 128,
      maxPages: 20,
      maxInflatedBytes: 32 * 2 ** 20,
      maxInflightBytes: 16 * 2 ** 20,
      maxOpenSubmissions: 7,
      storeThread: false,
    });
  });

  it.each([
    [{ COA_MAX_BYTES: 'ten' }, 'COA_MAX_BYTES must be a whole number'],
    [{ COA_WORKERS: '0' }, 'COA_WORKERS must be between 1 and 64'],
    [{ COA_STORE_FILES: 'maybe' }, 'COA_STORE_FILES must be true or false'],
    [{ COA_STORE_THREAD: 'sometimes' }, 'COA_STORE_THREAD must be true or false'],
    [{ COA_TIME_LIMIT_MS: '10' }, 'COA_TIME_LIMIT_MS must be between 100'],
  ])('%j is refused with a one-line reason', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('the in-flight budget must hold one whole upload and its form', () => {
    expect(() => loadConfig({ COA_MAX_BYTES: String(8 * 2 ** 20), COA_INFLIGHT_MB: '8' })).toThrow(
      'COA_INFLIGHT_MB must hold at least one upload of COA_MAX_BYTES',
    );
    const ok = loadConfig({
      COA_MAX_BYTES: String(8 * 2 ** 20 - COA_FORM_OVERHEAD_BYTES),
      COA_INFLIGHT_MB: '8',
    });
    expect(ok.coa.maxInflightBytes).toBe(8 * 2 ** 20);
  });
});
