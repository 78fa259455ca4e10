/** The engines the search benchmark compares, in the order it runs them. */
import type { BenchEngine, DatasetLayout } from '../types.js';
import { createFlexSearch } from './flexsearch.js';
import { createLoupe, loadLoupeEngine } from './loupe.js';
import { createLunr } from './lunr.js';
import { createMiniSearch } from './minisearch.js';
import { createOrama } from './orama.js';

export const ENGINE_NAMES = ['Loupe', 'MiniSearch', 'FlexSearch', 'Lunr', 'Orama'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export async function createEngine(
  name: EngineName,
  layout: DatasetLayout,
  tagOf: (id: string) => string | undefined,
): Promise<BenchEngine> {
  switch (name) {
    case 'Loupe':
      return createLoupe(layout, loadLoupeEngine());
    case 'MiniSearch':
      return createMiniSearch();
    case 'FlexSearch':
      return createFlexSearch();
    case 'Lunr':
      return createLunr(tagOf);
    case 'Orama':
      return createOrama();
  }
}
