/**
 * Integer parameters are written in decimal digits, optionally after a minus sign, and nothing else:
 * no `+`, no spaces, no `0x`/`0b`, no exponent, no fraction, no `Infinity` (decision 0017). Every
 * integer parameter also has a documented range; this refuses anything past the 32-bit range up
 * front, so no caller ever sees a rounded or infinite number.
 */
const DECIMAL_INTEGER = /^-?[0-9]{1,10}$/;
export const INTEGER_PARAM_MIN = -2_147_483_648;
export const INTEGER_PARAM_MAX = 2_147_483_647;

/** The value of a decimal integer parameter within [min, max], or null for anything else. */
export function parseIntegerParam(
  raw: string,
  min: number = INTEGER_PARAM_MIN,
  max: number = INTEGER_PARAM_MAX,
): number | null {
  if (!DECIMAL_INTEGER.test(raw)) return null;
  const n = Number(raw);
  return n >= min && n <= max && n >= INTEGER_PARAM_MIN && n <= INTEGER_PARAM_MAX ? n : null;
}
