import type { Plan } from '../../../src/core/accounts/model.ts';
import type { TestContext } from '../../support/context.ts';
import type { Dialect } from '../../support/databases.ts';
import type { Answer } from './transport.ts';

/** A success body (A: the body, B: the envelope's `data`), checked field by field by the cases. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the callers
export type SuccessBody = any;

/** A parameter value the endpoint accepts: 200, and what the answer must show for it. */
export interface AcceptedParams {
  /** The query string, without `?` (it replaces the endpoint URL's own query). */
  query: string;
  check(body: SuccessBody): void;
  /**
   * The fast path has no cached answer for it, so over a socket the framework answers every time
   * (a search query of no words: every such query would share one cache key).
   */
  notCached?: true;
}

/** A parameter value the endpoint refuses: 400 `invalid_parameter` naming the parameter. */
export interface RefusedParams {
  query: string;
  param: string;
  /** The exact message, where the check pins it. */
  message?: string;
}

/** One endpoint of a variant, with a URL that answers 200 on the variant's fixture. */
export interface EndpointUnderTest {
  name: string;
  url: string;
  /** Parameter boundaries, for the endpoints that take query parameters. */
  accepts?: AcceptedParams[];
  refuses?: RefusedParams[];
}

/**
 * What the shared endpoint suite needs to know about a variant: everything the two variants do
 * differently, so every check is written once.
 */
export interface VariantUnderTest {
  name: string;
  prefix: string;
  endpoints: readonly EndpointUnderTest[];
  /** A fresh database of `dialect` with the variant's fixture imported at T0 (ctx.clock at T0). */
  setup(dialect: Dialect): Promise<TestContext>;
  /** The `X-RateLimit-Limit` of each plan. */
  limits: Record<Plan, number>;
  /** The `X-RateLimit-Reset` (Unix seconds) for a key whose oldest counted hit is at `firstHitMs`. */
  resetS(firstHitMs: number, nowMs: number): number;
  /** The `Retry-After` (seconds) of a 429 for such a key. */
  retryAfterS(firstHitMs: number, nowMs: number): number;
  /** The 429 message names the limit and the variant's window. */
  limitMessage(limit: number): RegExp;
  /** A custom-plan key whose limit on this variant is `limit`. */
  keyWithLimit(ctx: TestContext, limit: number): Promise<string>;
  /** Asserts a 200 in the variant's success shape and returns what the parameter checks read. */
  expectSuccess(res: Answer): SuccessBody;
  /** An import that changes the data; `sameBody` says which endpoints' bodies it leaves as they were. */
  dataChange: { records: Record<string, unknown>[]; sameBody(url: string): boolean };
}
