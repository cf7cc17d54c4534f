/**
 * The long run of the outside-in fuzz suite: `npm run fuzz -- --runs 100000`.
 * Options: --runs N (total requests, spread over the families), --seed S, --variants a,b,
 * --concurrency C (requests in flight), --report FILE (Markdown list of failure classes),
 * --dialect sqlite|postgres (the database behind the server; SQLite by default).
 * Exits 1 when any failure class was found.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Findings, report } from './findings.ts';
import { startFuzzer, sweep } from './harness.ts';
import { minimize } from './minimize.ts';
import { VARIANTS, type Variant } from './requests.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7000' },
    seed: { type: 'string' },
    variants: { type: 'string', default: VARIANTS.join(',') },
    concurrency: { type: 'string', default: '8' },
    report: { type: 'string' },
    dialect: { type: 'string', default: 'sqlite' },
  },
});
const runs = Number(values.runs);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
const concurrency = Number(values.concurrency);
const variants = values.variants.split(',') as Variant[];
for (const v of variants)
  if (!VARIANTS.includes(v)) throw new Error(`unknown variant '${v}' (one of ${VARIANTS.join(', ')})`);
if (!Number.isSafeInteger(runs) || runs < 1) throw new Error('--runs takes a positive integer');

if (values.dialect !== 'sqlite' && values.dialect !== 'postgres')
  throw new Error('--dialect is sqlite or postgres');
const fuzzer = await startFuzzer(values.dialect);
const findings = new Findings();
const started = performance.now();
console.log(
  `fuzzing ${runs} requests over ${variants.join(', ')} (${values.dialect}, seed ${seed}, ${concurrency} in flight)`,
);
try {
  for (const [i, variant] of variants.entries()) {
    const share = Math.floor(runs / variants.length) + (i < runs % variants.length ? 1 : 0);
    const before = {
      requests: findings.requests,
      failed: findings.failedRequests,
      classes: findings.classes.size,
    };
    const t = performance.now();
    await sweep(fuzzer, variant, { runs: share, seed: seed + i * 1_000_003, concurrency, findings });
    console.log(
      `  ${variant.padEnd(11)} ${String(findings.requests - before.requests).padStart(7)} requests  ` +
        `${((performance.now() - t) / 1000).toFixed(1).padStart(6)} s  ` +
        `${findings.failedRequests - before.failed} failed  ${findings.classes.size - before.classes} new classes`,
    );
  }
} catch (err) {
  await fuzzer.close();
  throw err;
}
const seconds = (performance.now() - started) / 1000;
const served = fuzzer.target.ctx.app.fastPath.served;
// Shrink each class's reproduction (these requests are not counted in the figures above).
for (const cls of findings.classes.values()) await minimize(fuzzer, cls);
await fuzzer.close();
const summary = [
  `requests: ${findings.requests}, time: ${seconds.toFixed(1)} s (${Math.round(findings.requests / seconds)}/s), ` +
    `failed requests: ${findings.failedRequests}, failure classes: ${findings.classes.size}, seed: ${seed}`,
  `answered by the fast path: ${served}`,
];
const text = report(findings, fuzzer.target.world);
console.log(`\n${summary.join('\n')}\n${text}`);
if (values.report) writeFileSync(values.report, `${summary.join('\n')}\n\n${text}\n`);
process.exit(findings.classes.size ? 1 : 0);
