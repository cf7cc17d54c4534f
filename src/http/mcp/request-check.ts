import { ClientRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/*
 * A JSON-RPC request checked against the SDK's own schema of its method before the SDK sees it. The
 * SDK answers a request whose params do not fit (an `initialize` without params) with -32603 and
 * the validator's raw output as its message: an internal error for a client's mistake. Checked here,
 * it is -32602 naming the field, in the REST words, and nothing is counted.
 */

type RequestSchema = (typeof ClientRequestSchema.options)[number];

const BY_METHOD = new Map<string, RequestSchema>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

/**
 * Why the request does not fit its method's schema, as `Parameter '<path>' …`; null when it fits or
 * its method is not one a client sends (the SDK answers those: -32601 method not found).
 */
export function requestProblem(message: { method?: unknown }): string | null {
  if (typeof message.method !== 'string') return null;
  const schema = BY_METHOD.get(message.method);
  if (!schema) return null;
  const parsed = schema.safeParse(message);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  if (!issue) return 'The request does not fit its method.';
  const path = issue.path.map(String).join('.') || 'params';
  return `Parameter '${path}' is invalid for ${message.method}: ${issue.message}.`;
}
