/** Host implementation of the search workbench's contract methods (see ../contract/search.ts). */
import type { AreaMethods } from '../area.js';
import type { SearchMethods } from '../contract/search.js';

export const searchArea: AreaMethods<keyof SearchMethods & string> = {};
