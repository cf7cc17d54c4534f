import { classKey, type FindingClass } from './findings.ts';
import type { Fuzzer } from './harness.ts';
import type { WireRequest } from './raw-http.ts';

/**
 * Shrinks a failure class's request for the report: drops query pairs, headers and the body one at
 * a time, keeping each cut that still shows the same class. Sampled requests (the long run) are not
 * shrunk by fast-check, and "the shortest request seen" still carries noise.
 */
export async function minimize(fuzzer: Fuzzer, cls: FindingClass, budget = 60): Promise<void> {
  let best = cls.request;
  let tries = 0;
  const stillFails = async (candidate: WireRequest) => {
    tries++;
    const { res, problems } = await fuzzer.probe(candidate);
    const same = problems.find((p) => classKey(p, res.status) === cls.key);
    if (same)
      Object.assign(cls, { request: candidate, status: res.status, detail: same.detail, where: same.where });
    return same !== undefined;
  };
  let progress = true;
  while (progress && tries < budget && best.raw === undefined) {
    progress = false;
    for (const candidate of cuts(best)) {
      if (tries >= budget) break;
      if (await stillFails(candidate)) {
        best = candidate;
        progress = true;
        break;
      }
    }
  }
}

/** Every request with one piece less. */
function* cuts(req: WireRequest): Generator<WireRequest> {
  const [path, query] = splitTarget(req.target);
  if (query !== null) {
    const pairs = query.split('&');
    if (pairs.length > 1) yield { ...req, target: path };
    for (let i = 0; i < pairs.length; i++) {
      const rest = pairs.filter((_, j) => j !== i);
      yield { ...req, target: rest.length ? `${path}?${rest.join('&')}` : path };
    }
  }
  for (let i = 0; i < req.headers.length; i++) {
    yield { ...req, headers: req.headers.filter((_, j) => j !== i) };
  }
  if (req.body !== undefined && req.body.length > 0) {
    const { body: _dropped, ...bodiless } = req;
    yield bodiless;
    if (req.body.length > 64) yield { ...req, body: req.body.slice(0, Math.floor(req.body.length / 2)) };
  }
}

function splitTarget(target: string): [string, string | null] {
  const i = target.indexOf('?');
  return i < 0 ? [target, null] : [target.slice(0, i), target.slice(i + 1)];
}
