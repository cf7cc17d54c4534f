/**
 * Where a one-time link (an invitation or a password reset) points: the page that shows a
 * set-password form and, posted, sets it (src/http/pages/sign-in-routes.ts serves it). The one
 * place that knows the path.
 */
export const LINK_PATH = '/dashboard/welcome/';

/** The link to print or show: `base` without a trailing slash, then the path and the token. */
export const linkUrl = (base: string, token: string): string =>
  `${base.replace(/\/+$/, '')}${LINK_PATH}${token}`;

/** Where users reach the service: PURERANK_PUBLIC_URL when set, else this machine's address. */
export const linkBase = (publicUrl: string | null, localBase: string): string => publicUrl ?? localBase;
