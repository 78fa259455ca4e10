/**
 * Host-contract methods and events of the search workbench. Owned by the search engine's issue;
 * everything the engine knows should be reachable from here so a UI can show it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SearchMethods {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SearchEvents {}
