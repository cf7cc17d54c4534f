/**
 * Child process of heap-growth.test.ts: applies limitHeapGrowth(percent from argv), keeps ~60 MB
 * live, then churns objects that live long enough to be promoted (the pattern that inflated the
 * service's heap between major GCs), and prints the largest heap V8 committed, in MB.
 */
import { getHeapStatistics } from 'node:v8';
import { limitHeapGrowth } from '../../src/main/heap-growth.ts';

limitHeapGrowth(Number(process.argv[2]));
const live: object[] = [];
for (let i = 0; i < 600_000; i++) live.push({ i, name: `vendor-${i}`, tags: [i, i + 1] });
let window: object[][] = [];
let peak = 0;
for (let round = 0; round < 400; round++) {
  const chunk: object[] = [];
  for (let i = 0; i < 20_000; i++) chunk.push({ round, i, text: `row-${round}-${i}` });
  window.push(chunk);
  if (window.length > 8) window = window.slice(1); // each chunk survives several scavenges
  peak = Math.max(peak, getHeapStatistics().total_heap_size);
}
process.stdout.write(`${JSON.stringify({ peakMb: Math.round(peak / 1e6), live: live.length })}\n`);
