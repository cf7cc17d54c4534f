import type { FastifyInstance, preValidationHookHandler, RouteOptions } from 'fastify';
import { invalidParameter } from '../core/errors.ts';
import { INTEGER_PARAM_MAX, INTEGER_PARAM_MIN, parseIntegerParam } from '../core/validation/integers.ts';

/*
 * Integer query parameters, decided once for every route (decision 0017). The service's Ajv coerces
 * query strings with JavaScript's Number(), which reads `0x10`, `0b11`, `+5`, ` 5`, `1e3`, `1.0`,
 * `Infinity` and rounds `99999999999999999999`. Here each route's querystring schema is read when
 * the route is declared, and its integer properties are checked on the raw text before the schema
 * runs: an optional minus sign and decimal digits, given once, within the schema's minimum and
 * maximum and never past the 32-bit range. The parsed number replaces the text, so the schema has
 * nothing left to coerce. The fast path applies the same function (readIntegerParam).
 */

/** What a schema allows for one integer parameter. */
export interface IntegerBounds {
  min: number;
  max: number;
}

/** An integer parameter's value, undefined when absent, or the phrase saying why it is refused. */
export type IntegerReading = { ok: true; value: number | undefined } | { ok: false; phrase: string };

const DIGITS = /^-?[0-9]+$/;

/**
 * Reads one integer parameter as the query parser gives it (a string, an array when repeated, or
 * undefined). The phrase completes "Parameter 'x' …".
 */
export function readIntegerParam(raw: unknown, bounds: IntegerBounds): IntegerReading {
  if (raw === undefined) return { ok: true, value: undefined };
  if (Array.isArray(raw)) return { ok: false, phrase: 'must be given only once.' };
  if (typeof raw !== 'string' || !DIGITS.test(raw)) return { ok: false, phrase: 'must be an integer.' };
  const value = parseIntegerParam(raw, bounds.min, bounds.max);
  if (value !== null) return { ok: true, value };
  // Digits, but out of range: say which end (a long run of digits is past one, whatever it rounds to).
  return Number(raw) < bounds.min
    ? { ok: false, phrase: `must be at least ${bounds.min}.` }
    : { ok: false, phrase: `must be at most ${bounds.max}.` };
}

interface SchemaNode {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, SchemaNode>;
}

const isInteger = (s: SchemaNode): boolean =>
  s.type === 'integer' || (Array.isArray(s.type) && s.type.includes('integer'));

/** The integer properties of a querystring schema and their bounds (clipped to the 32-bit range). */
export function integerQueryParams(schema: unknown): (IntegerBounds & { name: string })[] {
  const properties = (schema as SchemaNode | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, s]) => isInteger(s))
    .map(([name, s]) => ({
      name,
      min: Math.max(INTEGER_PARAM_MIN, s.minimum ?? INTEGER_PARAM_MIN),
      max: Math.min(INTEGER_PARAM_MAX, s.maximum ?? INTEGER_PARAM_MAX),
    }));
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Gives every route with integer query parameters a preValidation step that checks them. Register
 * before any route (an onRoute hook sees only routes declared after it).
 */
export function registerIntegerParams(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const params = integerQueryParams(route.schema?.querystring);
    if (params.length === 0) return;
    const check: preValidationHookHandler = (request, _reply, done) => {
      const query = request.query as Record<string, unknown>;
      for (const p of params) {
        const reading = readIntegerParam(query[p.name], p);
        if (!reading.ok) return done(invalidParameter(p.name, reading.phrase));
        if (reading.value !== undefined) query[p.name] = reading.value;
      }
      done();
    };
    route.preValidation = [check, ...asArray(route.preValidation)];
  });
}
