import { hash, randomBytes, randomUUID } from 'node:crypto';

/** Live keys: `prk_live_` followed by 32 base62 characters (DESIGN.md §4). */
export const KEY_PREFIX = 'prk_live_';
const BODY_LENGTH = 32;
/** Characters of a whole key. */
export const KEY_LENGTH = 'prk_live_'.length + BODY_LENGTH;
const KEY_PATTERN = /^prk_live_[0-9A-Za-z]{32}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Characters of the key kept for display: the prefix plus four of the body. */
export const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 4;

export const isWellFormedKey = (key: string): boolean =>
  key.length === KEY_PREFIX.length + BODY_LENGTH && KEY_PATTERN.test(key);

/** SHA-256 hex: keys are high-entropy random strings, so a fast unsalted hash is the right tool. */
export const hashKey = (key: string): string => hash('sha256', key, 'hex');

export const displayPrefix = (key: string): string => key.slice(0, DISPLAY_PREFIX_LENGTH);

export function generateKey(): { key: string; id: string; hash: string; prefix: string } {
  // Rejection sampling keeps every base62 character equally likely (256 is not a multiple of 62).
  let body = '';
  while (body.length < BODY_LENGTH) {
    for (const b of randomBytes(48)) {
      if (b < 248 && body.length < BODY_LENGTH) body += BASE62[b % 62];
    }
  }
  const key = KEY_PREFIX + body;
  return {
    key,
    id: `key_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
    hash: hashKey(key),
    prefix: displayPrefix(key),
  };
}
