#!/usr/bin/env -S node --max-semi-space-size=64
// Runs the `loupe` command straight from the TypeScript sources (no build step in a checkout).
// --max-semi-space-size: the CDC pipeline allocates a few KB per change that die within a
// poll; with V8's default 16 MB semi-space most of it is still alive at each scavenge and gets
// copied (the source task ran 1.4x slower). Keep it equal in package.json's scripts.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../core/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), process.env);
