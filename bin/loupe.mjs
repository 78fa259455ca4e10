#!/usr/bin/env node
// Runs the `loupe` command straight from the TypeScript sources (no build step in a checkout).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../core/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), process.env);
