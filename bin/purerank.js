#!/usr/bin/env node
// The CLI is TypeScript run through tsx's loader, so `npx purerank` and `npm start` always run the
// checked-out source: no build step that could go stale. Runtime speed is unaffected (the loader
// only transforms each file once, at import).
import { register } from 'tsx/esm/api';

register();
await import('../src/main/cli.ts');
