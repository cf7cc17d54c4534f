import fc from 'fast-check';
import type { Dialect } from '../support/databases.ts';
import { checkResponse, type Problem, placeOf } from './checks.ts';
import type { Findings } from './findings.ts';
import { send, type WireRequest, type WireResponse } from './raw-http.ts';
import { requests, type Variant } from './requests.ts';
import { type ApiModel, apiModel } from './spec.ts';
import { type FuzzTarget, startTarget } from './target.ts';

/** How long an answer may take. Far above any honest answer; a request left waiting is a failure. */
export const ANSWER_TIMEOUT_MS = 5000;

export interface Fuzzer {
  target: FuzzTarget;
  api: ApiModel;
  /** Sends one request and checks its answer. */
  probe(req: WireRequest): Promise<{ res: WireResponse; problems: Problem[] }>;
  arbitrary(variant: Variant): fc.Arbitrary<WireRequest>;
  close(): Promise<void>;
}

export async function startFuzzer(dialect: Dialect = 'sqlite'): Promise<Fuzzer> {
  const target = await startTarget(dialect);
  const api = apiModel(target.documents);
  return {
    target,
    api,
    async probe(req) {
      const res = await send(target.port, req, { timeoutMs: ANSWER_TIMEOUT_MS });
      const problems = checkResponse(api, req, res);
      if (!req.repeat || problems.length) return { res, problems };
      const again = await send(target.port, req, { timeoutMs: ANSWER_TIMEOUT_MS });
      const more = checkResponse(api, req, again);
      const differs = disagreement(res, again);
      if (differs) more.push({ kind: 'unstable', where: placeOf(api, req), detail: differs });
      return { res: again, problems: more };
    },
    arbitrary: (variant) => requests(variant, api, target.world),
    close: () => target.close(),
  };
}

/**
 * Two answers to one read must agree in status and body (request ids aside), unless the quota ran
 * out in between. The first is usually the framework's, the second the fast path's.
 */
function disagreement(first: WireResponse, second: WireResponse): string | null {
  if (first.status === 429 || second.status === 429) return null;
  const body = (r: WireResponse) => r.body.replace(/"request_id":"[^"]*"/, '');
  if (first.status !== second.status) return `answered ${first.status}, then ${second.status}`;
  if (body(first) !== body(second)) return `status ${first.status} both times, different bodies`;
  return null;
}

/**
 * Sends `runs` generated requests of one family, `concurrency` at a time, and records every problem
 * by class (no stop at the first failure: a long run reports everything it finds).
 */
export async function sweep(
  fuzzer: Fuzzer,
  variant: Variant,
  opts: { runs: number; seed: number; concurrency: number; findings: Findings },
): Promise<void> {
  const arb = fuzzer.arbitrary(variant);
  const BATCH = 500;
  for (let done = 0; done < opts.runs; done += BATCH) {
    const batch = fc.sample(arb, { numRuns: Math.min(BATCH, opts.runs - done), seed: opts.seed + done });
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const req = batch[next++]!;
        const { res, problems } = await fuzzer.probe(req);
        opts.findings.record(req, res, problems);
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency }, worker));
  }
}
