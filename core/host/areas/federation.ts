/** Host implementation of the federation workbench's contract methods (see ../contract/federation.ts). */
import type { AreaMethods } from '../area.js';
import type { FederationMethods } from '../contract/federation.js';

export const federationArea: AreaMethods<keyof FederationMethods & string> = {};
