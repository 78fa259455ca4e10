// The SAML reading thread's first module (see xml-worker-pool.ts). Running from source, the
// thread registers tsx itself (worker threads do not inherit the main thread's loader hooks)
// before it loads the TypeScript entry; a build loads the compiled entry directly.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
