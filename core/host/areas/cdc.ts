/** Host implementation of the cdc workbench's contract methods (see ../contract/cdc.ts). */
import type { AreaMethods } from '../area.js';
import type { CdcMethods } from '../contract/cdc.js';

export const cdcArea: AreaMethods<keyof CdcMethods & string> = {};
