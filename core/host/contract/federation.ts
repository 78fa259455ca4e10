/**
 * Host-contract methods and events of the federation workbench. Owned by the federation engine's issue;
 * everything the engine knows should be reachable from here so a UI can show it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FederationMethods {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FederationEvents {}
