import { hash, randomBytes } from 'node:crypto';

/**
 * Secrets of the pages: session cookies, one-time links, form tokens. 32 random bytes (256 bits)
 * as 43 base64url characters. Only their SHA-256 is stored: they are high-entropy random strings,
 * so a fast unsalted hash is enough, and a copy of the database lets nobody sign in.
 */
export const newToken = (): string => randomBytes(32).toString('base64url');

export const hashToken = (token: string): string => hash('sha256', token, 'hex');

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whether a string could be one of our tokens: anything else is not looked up. */
export const isTokenShaped = (token: string): boolean => token.length === 43 && TOKEN_SHAPE.test(token);
