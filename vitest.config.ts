import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['core/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // chDB and the servers are heavy: two workers on a 2-core machine.
    pool: 'forks',
    maxWorkers: 2,
  },
});
