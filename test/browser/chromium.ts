import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Browser tests need Debian's chromium (`apt-get install chromium`); CI installs it and requires it. */
export const chromiumMissing = !existsSync(CHROMIUM);
if (chromiumMissing && process.env.CI === 'true') {
  throw new Error(
    `Browser tests are required when CI=true but ${CHROMIUM} is missing (apt-get install chromium)`,
  );
}
if (chromiumMissing) console.warn(`[tests] ${CHROMIUM} not found; browser tests are skipped.`);

/** Flags that keep Chromium from reaching for the network this machine does not have. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
