import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far V8 lets the heap grow between major GCs: to (1 + percent/100) × what the last one
 * kept, instead of V8's own factor, which on this service reached ≈ 2.7× under load (≈ 70 MB live,
 * ≈ 180 MB before the next major GC) and put resident memory over 300 MB. Decision 0015.
 *
 * Set while running rather than on the command line, so `npm start` and `purerank serve` get it
 * without wrapper scripts; V8 reads the flag at every major GC. 0 leaves V8's heuristics alone.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}

/**
 * Marks each heap on the thread that allocated it (incrementally, between its tasks) rather than
 * on V8's shared background threads. The PDF workers' heaps (pdfjs allocates megabytes per
 * document) go through several major GCs a second during an upload flood; marked concurrently,
 * they kept V8's four platform threads (normal priority, shared by the whole process) busy with
 * 8–17 ms of CPU per document, more than the ≈ 10 ms of the reading itself, on a 2-core machine
 * where the main thread needs a core to answer requests. Marked by the worker itself (nice 10), the
 * same documents took the worker no longer, and the service's CPU per verification halved
 * (docs/performance.md, CoA). The main thread's own major GCs are rare (decision 0015).
 */
export function markOnOwnThreads(): void {
  setFlagsFromString('--no-concurrent-marking');
}
