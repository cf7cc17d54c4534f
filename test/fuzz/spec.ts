import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** A JSON Schema as the OpenAPI documents carry it. */
export type Schema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

/** One operation of a served OpenAPI document, with its full path. */
export interface Operation {
  prefix: string;
  method: string;
  /** Full path template, e.g. `/v1/vendors/{slug}`. */
  path: string;
  label: string;
  params: Parameter[];
  body?: { contentType: string; schema: Schema };
  /** Documented statuses, each with the JSON schema of its body when it has one. */
  responses: Map<number, { ref: string } | null>;
}

export interface ApiModel {
  operations: Operation[];
  /** The operation a method and raw request-target reach, if any (HEAD reaches GET). */
  match(method: string, target: string): Operation | undefined;
  /** Errors of `body` against the documented schema of `op`'s `status` answer; null when valid. */
  validate(op: Operation, status: number, body: unknown): string | null;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
// ajv-formats is CommonJS; its default export is the function under ESM interop.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Reads the operations of the served documents and compiles a validator for each response body. */
export function apiModel(documents: Record<string, Record<string, unknown>>): ApiModel {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  const operations: Operation[] = [];
  for (const [prefix, doc] of Object.entries(documents)) {
    const id = `https://fuzz.invalid${prefix}`;
    ajv.addSchema({ ...doc, $id: id });
    const paths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
    for (const [path, item] of Object.entries(paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (op) operations.push(operation(prefix, id, path, method, op));
      }
    }
  }
  const compiled = new Map<string, ValidateFunction>();
  const validator = (ref: string) => {
    const seen = compiled.get(ref);
    if (seen) return seen;
    const v = ajv.compile({ $ref: ref });
    compiled.set(ref, v);
    return v;
  };
  return {
    operations,
    match(method, target) {
      const m = method === 'HEAD' ? 'GET' : method;
      // An absolute-form target (`GET http://host/v1/…`) is valid HTTP/1.1 and names the same path.
      const segments = target
        .replace(/^https?:\/\/[^/]*/i, '')
        .split(/[?#]/)[0]!
        .split('/');
      return operations.find((op) => op.method === m && templateMatches(op.path, segments));
    },
    validate(op, status, body) {
      const documented = op.responses.get(status);
      if (documented === undefined) return `status ${status} is not documented for ${op.label}`;
      if (documented === null) return null;
      const v = validator(documented.ref);
      if (v(body)) return null;
      return ajv.errorsText(v.errors, { dataVar: 'body' });
    },
  };
}

function operation(
  prefix: string,
  id: string,
  path: string,
  method: string,
  op: Record<string, unknown>,
): Operation {
  const pointer = `${id}#/paths/${pointerKey(path)}/${method}`;
  const params = ((op.parameters ?? []) as Record<string, unknown>[]).map((p) => ({
    name: String(p.name),
    in: p.in as Parameter['in'],
    required: p.required === true,
    schema: (p.schema ?? {}) as Schema,
  }));
  const responses = new Map<number, { ref: string } | null>();
  for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, Record<string, unknown>>)) {
    const content = r.content as Record<string, unknown> | undefined;
    responses.set(
      Number(status),
      content?.['application/json']
        ? { ref: `${pointer}/responses/${status}/content/application~1json/schema` }
        : null,
    );
  }
  const requestBody = op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined;
  const [contentType, media] = Object.entries(requestBody?.content ?? {})[0] ?? [];
  const full = `${prefix}${path}`;
  return {
    prefix,
    method: method.toUpperCase(),
    path: full,
    label: `${method.toUpperCase()} ${full}`,
    params,
    ...(contentType ? { body: { contentType, schema: media?.schema ?? {} } } : {}),
    responses,
  };
}

/** JSON Pointer escaping of a path key. */
const pointerKey = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

function templateMatches(template: string, segments: string[]): boolean {
  const parts = template.split('/');
  if (parts.length !== segments.length) return false;
  return parts.every((p, i) => (p.startsWith('{') ? segments[i] !== '' : p === segments[i]));
}
