import { describe, expect, it } from 'vitest';
import { pickSuites } from './ui.js';

describe('npm run bench:ui', () => {
  it('runs every workbench suite by default', () => {
    expect(pickSuites(undefined)).toEqual(['relevance', 'federation', 'cdc']);
  });
  it('runs the suites LOUPE_BENCH_UI names, and refuses a name that is no suite', () => {
    expect(pickSuites('cdc, relevance')).toEqual(['cdc', 'relevance']);
    expect(() => pickSuites('cdc,search')).toThrow('LOUPE_BENCH_UI names no suite: search');
  });
});
