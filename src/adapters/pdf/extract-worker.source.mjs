// The PDF worker's entry point when the service runs from TypeScript source (tsx, vitest): module
// hooks registered on the main thread do not reach worker threads on Node 20, and neither does
// `--import tsx` in a worker's execArgv, so the worker registers tsx itself before loading the
// TypeScript handler. The built service (dist/) loads extract-worker.js directly.
import { register } from 'tsx/esm/api';

register();
const { default: extract } = await import('./extract-worker.ts');
export default extract;
