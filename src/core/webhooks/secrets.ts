import { randomBytes } from 'node:crypto';

/** Standard Webhooks secrets: `whsec_` + base64 of random bytes (32; the issue asks ≥ 24). */
const PREFIX = 'whsec_';

export const newSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

/** The key an HMAC signs with: the secret's decoded bytes, not its text. */
export const secretKey = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');

export const newEndpointId = (): string => `ep_${randomBytes(12).toString('hex')}`;
export const newDeliveryId = (): string => `dlv_${randomBytes(12).toString('hex')}`;
