import type { FastifyBaseLogger } from 'fastify';

type Bindings = Record<string, unknown>;
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * A request's logger (Fastify's `request.log`) whose every line carries the request id, built only
 * when the request logs something: pino's child() per request, just to bind the id, cost a
 * measurable share of a request that never logs (most of them). One small object per request that
 * goes through Fastify; the fast path has no logger at all (it logs nothing).
 */
class RequestLogger {
  private bound: FastifyBaseLogger | null = null;

  constructor(
    readonly root: FastifyBaseLogger & { isLevelEnabled?(level: string): boolean },
    private readonly bindings: Bindings,
  ) {}

  get level(): string {
    return this.root.level;
  }

  set level(value: string) {
    this.logger().level = value;
  }

  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  logger(): FastifyBaseLogger {
    this.bound ??= this.root.child(this.bindings);
    return this.bound;
  }
}

// Each method on the prototype (no closures per request): a level that is off costs no child.
for (const level of LEVELS) {
  Object.defineProperty(RequestLogger.prototype, level, {
    value(this: RequestLogger, ...args: unknown[]): void {
      const root = this.root;
      if (root.isLevelEnabled && !root.isLevelEnabled(level)) return;
      (this.logger()[level] as (...a: unknown[]) => void)(...args);
    },
  });
}

/** Fastify's childLoggerFactory: the request id (Fastify's binding, `request_id`) on every line. */
export const requestLogger = (
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: { level?: string; serializers?: unknown } = {},
): FastifyBaseLogger =>
  // A route with a log level or serializers of its own (none has one today) gets its child at once.
  options.level !== undefined || options.serializers !== undefined
    ? logger.child(bindings, options as object)
    : // The log methods are the prototype's, defined above.
      (new RequestLogger(logger, bindings) as unknown as FastifyBaseLogger);
