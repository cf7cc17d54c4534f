import { parseIntegerParam } from '../core/validation/integers.ts';
import { containsNul } from './nul-strings.ts';

/** A request's path parameters and query, validated as the route's schemas would, defaults applied. */
export interface ParsedParameters {
  params: Record<string, string>;
  query: Record<string, string | number>;
}

/** (raw path, raw query string) → the route's parameters, or null: not this route, or not plainly valid. */
export type ParameterParser = (path: string, rawQuery: string) => ParsedParameters | null;

type Check = (raw: string) => string | number | null;

interface JsonSchemaLike {
  type?: string;
  properties?: Record<string, JsonSchemaLike>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
}

/** ajv counts a string's length in code points, so do we. */
function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * One property's check, from its schema. Only integers and strings with bounds (and a pattern) are
 * understood; a route whose parameters need more cannot be answered here, and says so at start-up
 * rather than being answered wrongly.
 */
function checkOf(route: string, name: string, s: JsonSchemaLike): Check {
  if (s.type === 'integer') {
    const { minimum, maximum } = s;
    return (raw) => parseIntegerParam(raw, minimum, maximum);
  }
  if (s.type === 'string') {
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? Number.POSITIVE_INFINITY;
    const pattern = s.pattern === undefined ? null : new RegExp(s.pattern, 'u');
    return (raw) => {
      const n = codePoints(raw);
      return n >= min && n <= max && (pattern === null || pattern.test(raw)) ? raw : null;
    };
  }
  throw new Error(`Cached read ${route}: parameter '${name}' has a schema the fast path cannot check.`);
}

/**
 * Text the framework would read exactly as we do, and that no request-wide rule refuses: no U+0000
 * (nul-strings.ts), and no U+FFFD, which URLSearchParams makes of a percent sequence that is not
 * UTF-8 while Fastify's query parser keeps the raw text — the two would then check and key
 * different strings. Anything else here is left to the framework.
 */
const plainText = (s: string): boolean => !containsNul(s) && !s.includes('\uFFFD');

function decodeSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * Compiles a route's URL pattern (`/v1/peptides/:slug/vendors`) and its params and querystring
 * schemas into a parser that accepts exactly the plainly valid requests of that route: static
 * segments match to the byte, each parameter passes its schema, every query parameter is declared
 * and given once, required ones are present and defaults are filled in. Anything else is null and
 * goes to the framework, which answers it (with its error, if it is one).
 */
export function compileParameters(url: string, params: unknown, querystring: unknown): ParameterParser {
  const paramSchema = (params ?? {}) as JsonSchemaLike;
  const querySchema = (querystring ?? {}) as JsonSchemaLike;
  const segments = url.split('/').map((part) => {
    if (!part.startsWith(':')) return { name: null, check: null, text: part };
    const name = part.slice(1);
    const s = paramSchema.properties?.[name];
    if (!s) throw new Error(`Cached read ${url}: path parameter '${name}' has no schema.`);
    return { name, check: checkOf(url, name, s), text: part };
  });
  const props = Object.entries(querySchema.properties ?? {}).map(([name, s]) => ({
    name,
    check: checkOf(url, name, s),
    fallback: s.default as string | number | undefined,
    required: querySchema.required?.includes(name) === true && s.default === undefined,
  }));
  const declared = new Set(props.map((p) => p.name));

  return (path, rawQuery) => {
    const parts = path.split('/');
    if (parts.length !== segments.length) return null;
    const out: ParsedParameters = { params: {}, query: {} };
    for (let i = 0; i < parts.length; i++) {
      const seg = segments[i]!;
      const part = parts[i]!;
      if (seg.check === null) {
        if (part !== seg.text) return null;
        continue;
      }
      if (part === '') return null;
      const decoded = decodeSegment(part);
      const value = decoded === null || !plainText(decoded) ? null : seg.check(decoded);
      if (value === null) return null;
      out.params[seg.name!] = String(value);
    }
    const query = new URLSearchParams(rawQuery);
    for (const name of query.keys()) if (!declared.has(name)) return null;
    for (const p of props) {
      const all = query.getAll(p.name);
      if (all.length > 1) return null;
      if (all.length === 0) {
        if (p.required) return null;
        if (p.fallback !== undefined) out.query[p.name] = p.fallback;
        continue;
      }
      const raw = all[0]!;
      const value = plainText(raw) ? p.check(raw) : null;
      if (value === null) return null;
      out.query[p.name] = value;
    }
    return out;
  };
}
