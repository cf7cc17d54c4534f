// The store thread's entry when the service runs from TypeScript source (tsx, vitest): module hooks
// registered on the main thread do not reach worker threads on Node 20, so the thread registers tsx
// itself before loading the TypeScript (as the PDF workers and the delivery thread do). The built
// service (dist/) loads store-thread.js.
import { register } from 'tsx/esm/api';

register();
await import('./store-thread.ts');
