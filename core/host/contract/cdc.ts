/**
 * Host-contract methods and events of the cdc workbench. Owned by the cdc engine's issue;
 * everything the engine knows should be reachable from here so a UI can show it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CdcMethods {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CdcEvents {}
