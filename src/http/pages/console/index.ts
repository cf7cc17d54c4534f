import type { PageRoutes } from '../index.ts';
import { accountPages } from './accounts.ts';
import { eventPages } from './events.ts';
import { reviewPages } from './reviews.ts';
import { vendorPages } from './vendors.ts';

/** The operator console's pages under /console (operators only). */
export const CONSOLE_PAGES: PageRoutes[] = [reviewPages, vendorPages, accountPages, eventPages];
