import type { PageRoutes } from '../index.ts';
import { coaPages } from './coa.ts';
import { keyPages } from './keys.ts';
import { settingsPages } from './settings.ts';
import { usagePages } from './usage.ts';
import { webhookPages } from './webhooks.ts';

/** The account pages under /dashboard, each module adding its own routes (signed-in members only). */
export const DASHBOARD_PAGES: PageRoutes[] = [keyPages, usagePages, webhookPages, coaPages, settingsPages];
