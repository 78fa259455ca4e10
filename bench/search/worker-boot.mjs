// Worker threads do not inherit the main thread's `--import tsx` hooks on Node 20, so the
// worker registers tsx itself before loading the TypeScript entry point.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
