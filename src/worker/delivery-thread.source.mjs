// The delivery thread's entry when the service runs from TypeScript source (tsx, vitest): module
// hooks registered on the main thread do not reach worker threads on Node 20, so the thread
// registers tsx itself before loading the TypeScript (as the PDF workers do,
// src/adapters/pdf/extract-worker.source.mjs). The built service (dist/) loads delivery-thread.js.
import { register } from 'tsx/esm/api';

register();
await import('./delivery-thread.ts');
