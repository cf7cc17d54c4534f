import type { AcceptedParams, RefusedParams, SuccessBody } from './variant.ts';

/*
 * Integer parameters are decimal digits (after an optional minus sign), given once, within their
 * documented range; every other spelling is 400 `invalid_parameter` (decision 0017,
 * src/core/validation/integers.ts), on both request paths.
 */

/** Plainly written values whose loose spellings are refused below: accepted first, so they are cached. */
export const NEIGHBOURS = [5, 10, 16];

/**
 * Spellings of 5, 10 and 16 that JavaScript's Number() would read, each refused. In a query
 * string `+` is a space, so `+5` arrives as " 5" (`%2B5` is the plus sign itself).
 */
const LOOSE = ['0x10', '%2B5', '+5', '%205', '5%20', '%095', '1e1', '1E1', '10.0', '16.', '.5', '0b101'];

/** The loose spellings of `param` (after `base`, e.g. `q=labs&`), and the parameter given twice. */
export function looseIntegers(param: string, base = ''): RefusedParams[] {
  return [
    ...LOOSE.map((raw) => ({
      query: `${base}${param}=${raw}`,
      param,
      message: `Parameter '${param}' must be an integer.`,
    })),
    {
      query: `${base}${param}=5&${param}=5`,
      param,
      message: `Parameter '${param}' must be given only once.`,
    },
  ];
}

/** The plain neighbours of the loose spellings, accepted with `check`. */
export function plainNeighbours(
  param: string,
  base: string,
  check: (value: number, body: SuccessBody) => void,
): AcceptedParams[] {
  return NEIGHBOURS.map((n) => ({
    query: `${base}${param}=${n}`,
    check: (body: SuccessBody) => check(n, body),
  }));
}
