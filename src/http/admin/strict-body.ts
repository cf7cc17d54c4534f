import type { FastifyRequest } from 'fastify';

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

/** The issue shape of Ajv, which the service's error handler turns into "Parameter 'x' …". */
interface TypeIssue {
  keyword: 'type';
  instancePath: string;
  params: { type: string };
}

/** A validation failure the shared error handler reports as 400 `invalid_parameter`. */
class BodyTypeError extends Error {
  readonly statusCode = 400;
  readonly validationContext = 'body';
  constructor(readonly validation: TypeIssue[]) {
    super('The request body is not valid.');
  }
}

const jsonType = (v: unknown): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
};

/** The first value whose JSON type the schema does not allow, depth first. */
function firstTypeIssue(schema: SchemaNode, value: unknown, path: string): TypeIssue | null {
  if (schema.type !== undefined) {
    const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = jsonType(value);
    if (!(allowed.includes(actual) || (actual === 'integer' && allowed.includes('number')))) {
      return { keyword: 'type', instancePath: path, params: { type: allowed.join(' or ') } };
    }
  }
  if (schema.properties && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      if (!Object.hasOwn(value, name)) continue;
      const issue = firstTypeIssue(sub, (value as Record<string, unknown>)[name], `${path}/${name}`);
      if (issue) return issue;
    }
  }
  if (schema.items && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const issue = firstTypeIssue(schema.items, value[i], `${path}/${i}`);
      if (issue) return issue;
    }
  }
  return null;
}

/**
 * The service's Ajv coerces types (right for query strings and paths), but in a JSON body a
 * coercion changes meaning: `null` would become `0`, `false` or `""` (an override `value: null`
 * would pin a pillar to 0 instead of being refused). So JSON bodies of the operator API are
 * checked first for exact JSON types against the route's own body schema; only then does the
 * schema validation run, and it has nothing left to coerce. An absent body reads as `{}` when
 * every field is optional (`emptyBody: 'object'`).
 */
export function strictJsonBody(opts: { emptyBody?: 'object' } = {}) {
  return async (request: FastifyRequest): Promise<void> => {
    if (opts.emptyBody === 'object' && request.body === undefined) request.body = {};
    const schema = request.routeOptions.schema?.body as SchemaNode | undefined;
    if (!schema || request.body === undefined) return;
    const issue = firstTypeIssue(schema, request.body, '');
    if (issue) throw new BodyTypeError([issue]);
  };
}
