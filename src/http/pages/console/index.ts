import type { PageRoutes } from '../index.ts';

/** The operator console's pages under /console (operators only). */
export const CONSOLE_PAGES: PageRoutes[] = [];
