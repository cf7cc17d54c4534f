import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { PdfPool, type PdfPoolOptions } from '../../src/adapters/pdf/pdf-pool.ts';
import { deflatedZeros } from '../support/coa/hostile-pdfs.ts';
import {
  decompressionBombPdf,
  deeplyNestedPdf,
  lyingPageCountPdf,
  makeCoa,
  manyPagesPdf,
  SAMPLE_FACTS,
  TEMPLATES,
} from '../support/coa/index.ts';
import { buildPdf, HELVETICA, stream } from '../support/coa/raw-pdf.ts';

const BASE: PdfPoolOptions = {
  threads: 1,
  timeLimitMs: 5_000,
  heapLimitMb: 128,
  maxPages: 50,
  maxInflatedBytes: 64 * 1024 * 1024,
  maxQueued: 8,
  maxQueuedBytes: 16 * 1024 * 1024,
};

const pools: PdfPool[] = [];
/** A pool whose workers have started (a document's clock never includes a worker's start-up). */
const pool = async (over: Partial<PdfPoolOptions> = {}) => {
  const p = new PdfPool({ ...BASE, ...over });
  pools.push(p);
  await p.warm();
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** Runs `work` while sampling the main thread's event-loop delay; returns the worst delay (ms). */
async function worstLoopDelay<T>(work: () => Promise<T>): Promise<{ result: T; worstMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try {
    const result = await work();
    return { result, worstMs: h.max / 1e6 };
  } finally {
    h.disable();
  }
}

describe('the PDF worker pool', () => {
  it('reads a realistic two-page CoA off the main thread', async () => {
    const p = await pool();
    const bytes = await makeCoa(TEMPLATES.halcyon, SAMPLE_FACTS);
    const r = await p.read(bytes);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.pageCount).toBe(2);
    // The caller's bytes are not taken from it (the pool copies before transferring).
    expect(bytes.byteLength).toBeGreaterThan(0);
  });

  it('reading many documents adds no listener per document (one error listener for the pool)', async () => {
    const p = await pool();
    const bytes = await makeCoa(TEMPLATES.halcyon, SAMPLE_FACTS);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      // Past Node's default of 10 listeners: a listener added per document warns at the eleventh.
      for (let i = 0; i < 15; i++) expect((await p.read(bytes)).ok).toBe(true);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it.each([
    ['5,000 pages', 'too_many_pages', () => manyPagesPdf(5000)],
    ['a 4 GiB decompression bomb', 'inflate_limit', () => decompressionBombPdf(4 * 2 ** 30)],
  ] as const)(
    '%s ends unreadable (%s) quickly, the main thread never blocked',
    async (_name, reason, make) => {
      const p = await pool();
      const bytes = make();
      const t0 = performance.now();
      const { result, worstMs } = await worstLoopDelay(() => p.read(bytes));
      expect(result).toEqual({ ok: false, reason });
      expect(performance.now() - t0).toBeLessThan(BASE.timeLimitMs);
      expect(worstMs).toBeLessThan(200);
    },
  );

  it('a page tree claiming 100,000 pages is answered quickly (refused, or its one real page read)', async () => {
    const p = await pool();
    const t0 = performance.now();
    const r = await p.read(lyingPageCountPdf(100_000));
    expect(performance.now() - t0).toBeLessThan(BASE.timeLimitMs);
    if (!r.ok) expect(r.reason).toBe('too_many_pages');
    else expect(r.pageCount).toBeLessThanOrEqual(BASE.maxPages);
  });

  it('a bomb the inflation guard cannot see (ASCIIHex over Flate) is stopped by the memory watchdog', async () => {
    // 400 MB of zeros, hex-encoded deflate: not a zlib stream on its face, so only pdfjs decodes it
    // (into buffers outside the worker's V8 heap). Resident memory may grow by 2 × 128 MB.
    const hex = Buffer.from(deflatedZeros(400 * 2 ** 20)).toString('hex');
    const bomb = buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      HELVETICA,
      stream('/Filter [/ASCIIHexDecode /FlateDecode]', `${hex}>`),
    ]);
    const p = await pool({ timeLimitMs: 20_000 });
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 10);
    try {
      const r = await p.read(bomb);
      expect(r).toEqual({ ok: false, reason: 'memory_limit' });
    } finally {
      clearInterval(sampler);
    }
    // The limit plus what one watchdog period (50 ms) of inflating adds.
    expect(peak - before).toBeLessThan(2 * 128 * 2 ** 20 + 200 * 2 ** 20);
    expect((await p.read(await makeCoa(TEMPLATES.meridian, SAMPLE_FACTS))).ok).toBe(true);
  });

  it('a zlib bomb behind spaces after `stream`, or with `endstream` planted in its data, is still seen', async () => {
    const zeros = Buffer.from(deflatedZeros(1024 * 2 ** 20));
    const withSpaces = Buffer.concat([
      Buffer.from(`<< /Filter /FlateDecode /Length ${zeros.length} >>\nstream   \n`, 'latin1'),
      zeros,
      Buffer.from('\nendstream', 'latin1'),
    ]);
    const planted = Buffer.concat([zeros.subarray(0, 40), Buffer.from('endstream'), zeros.subarray(40)]);
    const page = (content: Uint8Array) =>
      buildPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
        HELVETICA,
        content,
      ]);
    expect(await (await pool()).read(page(withSpaces))).toEqual({ ok: false, reason: 'inflate_limit' });
    // Planted bytes also damage the stream: the guard or the watchdog, whichever sees it first.
    const r = await (await pool()).read(page(stream('/Filter /FlateDecode', planted)));
    expect(r.ok).toBe(false);
    // (or, on a loaded machine, the time limit first).
    if (!r.ok)
      expect(['inflate_limit', 'memory_limit', 'no_text', 'corrupt', 'time_limit']).toContain(r.reason);
  });

  it('objects nested 50,000 deep end unreadable, not a crash', async () => {
    const r = await (await pool()).read(deeplyNestedPdf(50_000));
    expect(r.ok).toBe(false);
  });

  it('a document past the time limit ends time_limit; the worker is replaced and the next one reads', async () => {
    // The inflation guard off, so the bomb reaches pdfjs and takes its time there.
    const p = await pool({ timeLimitMs: 800, maxInflatedBytes: 2 ** 40, heapLimitMb: 512 });
    const t0 = performance.now();
    const { result, worstMs } = await worstLoopDelay(() => p.read(decompressionBombPdf(4 * 2 ** 30)));
    const took = performance.now() - t0;
    expect(result.ok).toBe(false);
    if (!result.ok) expect(['time_limit', 'memory_limit']).toContain(result.reason);
    // Wall time on a 2-core machine the whole suite loads. (CI once measured 5.3 and 6.1 s here:
    // that was the time limit lost to a garbage collection, the test below, and the memory
    // watchdog ending the read instead.)
    expect(took).toBeLessThan(800 + 3_000);
    expect(worstMs).toBeLessThan(200);
    let next = await p.read(await makeCoa(TEMPLATES.meridian, SAMPLE_FACTS));
    // A fresh worker's first real document on a CI machine the whole suite loads can pass this
    // 800 ms limit (the limit working); then a second one must be read.
    if (!next.ok && next.reason === 'time_limit')
      next = await p.read(await makeCoa(TEMPLATES.meridian, SAMPLE_FACTS));
    expect(next.ok).toBe(true);
  });

  it('the time limit holds through garbage collections (a timeout signal inside AbortSignal.any() did not)', async () => {
    // nodejs/node#57736: AbortSignal.any() holds an AbortSignal.timeout() weakly, so a collection
    // before it fired lost the limit and the document ran on until the memory watchdog stopped it.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const p = await pool({ timeLimitMs: 800, maxInflatedBytes: 2 ** 40, heapLimitMb: 512 });
    const t0 = performance.now();
    const reading = p.read(decompressionBombPdf(4 * 2 ** 30));
    let done = false;
    void reading.finally(() => {
      done = true;
    });
    while (!done) {
      gc();
      await sleep(10);
    }
    const result = await reading;
    const took = performance.now() - t0;
    expect(result).toEqual({ ok: false, reason: 'time_limit' });
    expect(took).toBeLessThan(800 + 1_500);
  });

  it('a full queue answers busy at once, bounded in documents and in bytes', async () => {
    const slow = decompressionBombPdf(4 * 2 ** 30);
    const p = await pool({ timeLimitMs: 400, maxInflatedBytes: 2 ** 40, heapLimitMb: 512, maxQueued: 1 });
    const running = p.read(slow);
    const queued = p.read(slow);
    expect(await p.read(slow)).toEqual({ ok: false, reason: 'busy' });
    await Promise.all([running, queued]);
    const bytesBound = await pool({ maxQueuedBytes: 10 });
    const first = bytesBound.read(await makeCoa(TEMPLATES.meridian, SAMPLE_FACTS));
    expect(await bytesBound.read(new Uint8Array(11))).toEqual({ ok: false, reason: 'busy' });
    expect((await first).ok).toBe(true);
  });

  it('close() answers what waits and what runs (busy: a stop, not a failure), and stops the workers', async () => {
    const p = await pool({ timeLimitMs: 2_000, maxInflatedBytes: 2 ** 40, heapLimitMb: 512 });
    const slow = decompressionBombPdf(4 * 2 ** 30);
    const running = p.read(slow).catch((e: unknown) => e);
    const waiting = p.read(slow);
    await new Promise((r) => setTimeout(r, 50));
    await p.close();
    expect(await waiting).toEqual({ ok: false, reason: 'busy' });
    // A read cut off by the stop (its client gone, so the stop did not wait) was an error the
    // route logged as unhandled (found by the hostile client of the tenth session).
    expect(await running).toEqual({ ok: false, reason: 'busy' });
  });
});
