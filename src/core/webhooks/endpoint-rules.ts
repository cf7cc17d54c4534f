import ipaddr from 'ipaddr.js';
import { invalidParameter } from '../errors.ts';
import { EVENT_TYPES, type EventType } from '../events/model.ts';
import { nonPublicClass, refusedAddress } from './address-policy.ts';
import type { HostResolver, Subscription } from './model.ts';

/**
 * The rules an endpoint's fields obey, checked on create and on every PATCH (each rule once, here).
 * A refusal is 400 `invalid_parameter` naming the field; nothing is written.
 */
export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;
/** A rotation keeps the old secret signing at most this long (the issue: at most 7 days). */
export const MAX_OVERLAP_SECONDS = 7 * 86_400;
export const DEFAULT_OVERLAP_SECONDS = 86_400;

export interface UrlPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and private/loopback targets (development and tests only). */
  allowPrivate: boolean;
  resolve: HostResolver;
}

/** A target URL: absolute https (http too when private targets are allowed), no credentials, a public host. */
export async function checkUrl(raw: string, policy: UrlPolicy): Promise<string> {
  if (raw.length > MAX_URL_LENGTH)
    throw invalidParameter('url', `must be at most ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParameter('url', 'must be an absolute URL, e.g. https://example.com/webhooks.');
  }
  const schemes = policy.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw invalidParameter('url', policy.allowPrivate ? 'must use https or http.' : 'must use https.');
  }
  if (url.username || url.password) throw invalidParameter('url', 'must not carry a user name or password.');
  // `url.hash` is '' for a bare `#`, which the href still carries: any '#' in the href is a fragment.
  if (url.href.includes('#')) throw invalidParameter('url', 'must not have a #fragment.');
  // The stored form is the parser's (`https://0x7f.1/` is `https://127.0.0.1/`): what is judged
  // here is what the sender will connect to. Punycode can lengthen a name, so measure it again.
  if (url.href.length > MAX_URL_LENGTH)
    throw invalidParameter('url', `must be at most ${MAX_URL_LENGTH} characters.`);
  if (policy.allowPrivate) return url.href;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const why = refusedAddress(host);
    if (why) throw invalidParameter('url', `must point to a public address: ${why}.`);
    return url.href;
  }
  // Every address the name has, not just the first: the sender refuses a name if any is non-public.
  for (const a of await resolveOrRefuse(host, policy.resolve)) {
    // The class, not the address: a name may lead to an internal one, and this answer must not
    // become an oracle for what internal names resolve to.
    if (nonPublicClass(a)) throw unresolvable(host);
  }
  return url.href;
}

async function resolveOrRefuse(host: string, resolve: HostResolver): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) throw unresolvable(host);
  return addresses;
}

/**
 * One answer whether a name does not resolve or resolves to a non-public address: telling them
 * apart would let anyone ask which internal names exist (and of what kind) through registration.
 */
const unresolvable = (host: string) =>
  invalidParameter('url', `must name a host that resolves, and only to public addresses: ${host} does not.`);

/** `["*"]`, or a non-empty list of known event types (duplicates dropped, order kept). */
export function checkEvents(raw: readonly string[]): Subscription {
  if (raw.length === 0) throw invalidParameter('events', 'must name at least one event type, or be ["*"].');
  if (raw.includes('*')) {
    if (raw.length > 1) throw invalidParameter('events', 'is ["*"] alone, or a list of event types.');
    return ['*'];
  }
  const out: EventType[] = [];
  for (const t of raw) {
    if (!(EVENT_TYPES as readonly string[]).includes(t)) {
      throw invalidParameter(
        'events',
        `has an unknown event type '${t}': one of ${EVENT_TYPES.join(', ')}, or "*".`,
      );
    }
    if (!out.includes(t as EventType)) out.push(t as EventType);
  }
  return out;
}

export function checkDescription(raw: string): string {
  if (raw.length > MAX_DESCRIPTION_LENGTH) {
    throw invalidParameter('description', `must be at most ${MAX_DESCRIPTION_LENGTH} characters.`);
  }
  return raw;
}

export function checkOverlap(raw: number | undefined): number {
  const s = raw ?? DEFAULT_OVERLAP_SECONDS;
  if (!Number.isInteger(s) || s < 0 || s > MAX_OVERLAP_SECONDS) {
    throw invalidParameter(
      'overlap_seconds',
      `must be a whole number of seconds from 0 to ${MAX_OVERLAP_SECONDS}.`,
    );
  }
  return s;
}

/** Whether an endpoint subscribed to `events` receives an event of `type`. */
export const subscribes = (events: Subscription, type: string): boolean =>
  events[0] === '*' || (events as readonly string[]).includes(type);
