import createClient, { type Client } from 'openapi-fetch';
import { EtagCache, withEtagCache } from './etag-cache.ts';
import type { paths as AdminPaths } from './generated/admin.ts';
import type { paths as PathsA } from './generated/variant-a.ts';
import type { paths as PathsB } from './generated/variant-b.ts';
import { eachNumberedPage, eachOffsetPage } from './paging.ts';
import { ReplayableRequest, type RetryOptions, withRetry } from './retry.ts';
import { timeoutLimit, withTimeout } from './timeout.ts';

export interface ClientOptions {
  /** The server, without a variant prefix: `https://api.example.com`. */
  baseUrl: string;
  /** The account's API key (`Authorization: Bearer …`). */
  apiKey: string;
  /** 429 handling (default: 2 retries, waiting at most 60 s each). */
  retry?: RetryOptions;
  /**
   * Time limit of each attempt, ms, from sending to the body's last byte (default 30 000; 0 or
   * Infinity: none). Aborts with a `TimeoutError`; the Retry-After waits between attempts are
   * not counted. A request's own `signal` aborts it sooner.
   */
  timeoutMs?: number;
  /** Budget of the ETag cache, bytes (default 5 MiB; 0 turns conditional requests off). */
  etagCacheBytes?: number;
  /** The transport (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

/** A non-2xx answer met while paging: the documented error body, and its status. */
export class PureRankError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const e = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    super(`PureRank answered ${status}${e?.code ? ` ${e.code}` : ''}${e?.message ? `: ${e.message}` : ''}`);
    this.name = 'PureRankError';
  }
}

type Json<R> = R extends { content: { 'application/json': infer J } } ? J : never;
/** Variant A's page/per_page listings. */
export type PagedPathA = '/vendors' | '/events' | '/webhooks/{id}/deliveries';
type GetA<P extends PagedPathA> = PathsA[P]['get'];
export type ItemA<P extends PagedPathA> = Json<GetA<P>['responses'][200]>['data'][number];
export interface PageParamsA<P extends PagedPathA> {
  query?: Omit<NonNullable<GetA<P>['parameters']['query']>, 'page'>;
  path?: GetA<P>['parameters']['path'];
}
export type VendorB = Json<PathsB['/vendors']['get']['responses'][200]>['data']['vendors'][number];

/** openapi-fetch's GET with the path left open: the paging helpers are generic over their path. */
type LooseGet = (
  url: string,
  init: { params: { query?: object; path?: object }; signal?: AbortSignal },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

const DEFAULT_CACHE_BYTES = 5 * 1024 * 1024;

function transport(opts: {
  fetch?: (request: Request) => Promise<Response>;
  retry?: RetryOptions;
  timeoutMs?: number;
  etagCacheBytes?: number;
}): (request: Request) => Promise<Response> {
  const send = opts.fetch ?? ((request: Request) => globalThis.fetch(request));
  const limit = timeoutLimit(opts.timeoutMs);
  // Inside the retry: each attempt gets its own limit, and the waits between them are not timed.
  const base = limit === null ? send : withTimeout(send, limit);
  const retried = withRetry(base, opts.retry);
  const bytes = opts.etagCacheBytes ?? DEFAULT_CACHE_BYTES;
  return bytes > 0 ? withEtagCache(retried, new EtagCache(bytes)) : retried;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

async function ok<T>(r: { data?: unknown; error?: unknown; response: Response }): Promise<T> {
  if (!r.response.ok || r.data === undefined) throw new PureRankError(r.response.status, r.error);
  return r.data as T;
}

export interface AdminOptions {
  /** Default: the client's baseUrl. */
  baseUrl?: string;
  /** The operator token (PURERANK_ADMIN_TOKEN). */
  token: string;
  retry?: RetryOptions;
  /** As the client's `timeoutMs` (default 30 000; 0 or Infinity: none). */
  timeoutMs?: number;
  fetch?: (request: Request) => Promise<Response>;
}

/** The operator API (/admin/v1). Its answers carry no ETags, so it gets no conditional cache. */
export function createAdminClient(opts: AdminOptions & { baseUrl: string }): Client<AdminPaths> {
  return createClient<AdminPaths>({
    baseUrl: `${trimSlash(opts.baseUrl)}/admin/v1`,
    headers: { authorization: `Bearer ${opts.token}` },
    fetch: transport({ ...opts, etagCacheBytes: 0 }),
    // Requests that remember their body's source, so a 429 is retried without a copy of the body.
    Request: ReplayableRequest,
  });
}

/**
 * The typed client: `a` and `b` are openapi-fetch clients of Variant A (/v1) and Variant B
 * (/api/v1), sharing one transport that retries a 429 after Retry-After and revalidates GETs
 * with their ETags; `eachA` and `eachVendorB` iterate every item of a paged listing.
 */
export function createPureRankClient(opts: ClientOptions) {
  const baseUrl = trimSlash(opts.baseUrl);
  const headers = { authorization: `Bearer ${opts.apiKey}` };
  const fetch = transport(opts);
  // ReplayableRequest: a 429 on a request with a body is retried without a copy of the body.
  const common = { headers, fetch, Request: ReplayableRequest };
  const a: Client<PathsA> = createClient<PathsA>({ baseUrl: `${baseUrl}/v1`, ...common });
  const b: Client<PathsB> = createClient<PathsB>({ baseUrl: `${baseUrl}/api/v1`, ...common });
  return {
    a,
    b,
    /** Every item of a Variant A listing, page after page (`per_page` default 100, the largest useful). */
    eachA<P extends PagedPathA>(
      path: P,
      params: PageParamsA<P> = {},
      init: { signal?: AbortSignal } = {},
    ): AsyncGenerator<ItemA<P>, void, undefined> {
      const query = { per_page: 100, ...params.query } as { per_page: number };
      return eachNumberedPage(
        async (page) =>
          ok<{ data: ItemA<P>[]; total: number }>(
            await (a.GET as unknown as LooseGet)(path, {
              params: { query: { ...query, page }, ...(params.path ? { path: params.path } : {}) },
              ...init,
            }),
          ),
        query.per_page,
      );
    },
    /** Every vendor of Variant B's ranking, offset after offset (`limit` default 200, the largest). */
    eachVendorB(
      params: { limit?: number } = {},
      init: { signal?: AbortSignal } = {},
    ): AsyncGenerator<VendorB, void, undefined> {
      const limit = params.limit ?? 200;
      return eachOffsetPage(async (offset) => {
        const body = await ok<{ data: { vendors: VendorB[]; total: number; limit: number; offset: number } }>(
          await b.GET('/vendors', { params: { query: { limit, offset } }, ...init }),
        );
        return {
          items: body.data.vendors,
          total: body.data.total,
          limit: body.data.limit,
          offset: body.data.offset,
        };
      });
    },
    /** A client of the operator API on the same server (or `baseUrl`). */
    admin(adminOpts: AdminOptions): Client<AdminPaths> {
      return createAdminClient({
        fetch: opts.fetch,
        retry: opts.retry,
        timeoutMs: opts.timeoutMs,
        ...adminOpts,
        baseUrl: adminOpts.baseUrl ?? baseUrl,
      });
    },
  };
}

export type PureRankClient = ReturnType<typeof createPureRankClient>;
