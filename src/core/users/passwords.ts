import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { DomainError, invalidParameter } from '../errors.ts';

/** Characters (code points) of a password: long enough to resist guessing, short enough to hash. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

/**
 * scrypt's cost: N = 2^15, r = 8, p = 1 takes 32 MiB and about 50–100 ms per hash here. The stored
 * form names its parameters (`scrypt$N$r$p$salt$hash`), so raising them later leaves older hashes
 * verifiable.
 */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}
export const SCRYPT_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** What a stored hash may ask for: a damaged or hostile row must not make one verify cost gigabytes. */
const LIMITS = { N: 2 ** 20, r: 32, p: 16 };

/**
 * Hashes run on libuv's small thread pool (4 threads by default), which DNS lookups and file reads
 * share; a burst of sign-ins must not take all of it, nor queue without limit. At most two at a
 * time; at most MAX_WAITING wait, and beyond that the service answers "busy".
 */
const CONCURRENT = 2;
const MAX_WAITING = 256;
let running = 0;
const waiting: (() => void)[] = [];

async function gated<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT) {
    if (waiting.length >= MAX_WAITING) {
      throw new DomainError('service_unavailable', 'Too many sign-ins at once; try again in a moment.');
    }
    await new Promise<void>((resume) => waiting.push(resume));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next waiter, or free it.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

const derive = (password: string, salt: Buffer, p: ScryptParams): Promise<Buffer> =>
  gated(
    () =>
      new Promise((done, fail) => {
        scrypt(
          password.normalize('NFC'),
          salt,
          KEY_BYTES,
          { N: p.N, r: p.r, p: p.p, maxmem: 128 * p.N * p.r * p.p + 1024 * 1024 },
          (err, key) => (err ? fail(err) : done(key)),
        );
      }),
  );

/** Characters as a person counts them (code points), not UTF-16 units. */
const length = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** A DomainError naming `password` unless it has PASSWORD_MIN to PASSWORD_MAX characters. */
export function checkPassword(password: string): void {
  const n = length(password);
  if (n < PASSWORD_MIN)
    throw invalidParameter('password', `must have at least ${PASSWORD_MIN} characters (it has ${n}).`);
  if (n > PASSWORD_MAX) throw invalidParameter('password', `must have at most ${PASSWORD_MAX} characters.`);
}

/** Whether the length alone rules a password out (sign-in answers "invalid" without hashing it). */
export const plausiblePassword = (password: string): boolean =>
  password.length > 0 && password.length <= PASSWORD_MAX * 2;

export async function hashPassword(password: string, params: ScryptParams = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

interface Parsed {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((x) => (/^\d{1,8}$/.test(x ?? '') ? Number(x) : Number.NaN));
  if (!(N && r && p) || N > LIMITS.N || r > LIMITS.r || p > LIMITS.p || (N & (N - 1)) !== 0 || N < 2)
    return null;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const key = Buffer.from(parts[5]!, 'base64url');
  if (salt.length < 8 || key.length < 16) return null;
  return { params: { N, r, p }, salt, key };
}

/** Whether `password` matches `stored`, compared in constant time. A malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) {
    await dummyVerify(password);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/**
 * The work of one verification against nothing: a sign-in for an unknown email, or a user without
 * a password, takes as long as a wrong password, so the time does not say which emails exist.
 */
export async function dummyVerify(password: string): Promise<false> {
  await derive(password.slice(0, PASSWORD_MAX * 2), randomBytes(SALT_BYTES), SCRYPT_PARAMS);
  return false;
}

/** Whether a stored hash was made with weaker parameters than today's (rehash after a sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  const { N, r, p } = parsed.params;
  return N < SCRYPT_PARAMS.N || r < SCRYPT_PARAMS.r || p < SCRYPT_PARAMS.p;
}
