/**
 * One `loupe serve` (clean data dir) for the tests of a file or describe block: started before
 * the first, stopped after the last; the screenshot folder made if one is given.
 */
import { test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { startLoupeServe, type LoupeServe } from './loupe-serve.js';

export function servedLoupe(opts: { screenshots?: string } = {}): { readonly current: LoupeServe } {
  let loupe: LoupeServe | undefined;
  test.beforeAll(async () => {
    loupe = await startLoupeServe();
    if (opts.screenshots) mkdirSync(opts.screenshots, { recursive: true });
  });
  test.afterAll(async () => {
    await loupe?.stop();
  });
  return {
    get current() {
      if (!loupe) throw new Error('loupe serve is not running (servedLoupe is read inside a test)');
      return loupe;
    },
  };
}
