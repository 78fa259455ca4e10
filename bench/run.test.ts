import { describe, expect, it } from 'vitest';
import { planBenchmarks } from './run.js';

describe('npm run bench', () => {
  const scripts = { 'bench:search': 'x', 'bench:sts': 'x', 'bench:cdc': 'x', 'bench:ui': 'x' };

  it('runs every benchmark whose script and file exist', () => {
    expect(planBenchmarks(scripts, () => true)).toEqual([
      { script: 'bench:search', run: true },
      { script: 'bench:sts', run: true },
      { script: 'bench:cdc', run: true },
      { script: 'bench:ui', run: true },
    ]);
  });

  it('skips a benchmark whose file is missing, and says so', () => {
    const plans = planBenchmarks(scripts, (file) => file !== 'bench/cdc.ts');
    expect(plans[2]).toEqual({ script: 'bench:cdc', run: false, reason: 'bench/cdc.ts does not exist yet' });
    const { 'bench:sts': _omit, ...withoutSts } = scripts;
    expect(planBenchmarks(withoutSts, () => true)[1]).toEqual({ script: 'bench:sts', run: false, reason: 'no npm script' });
  });
});
