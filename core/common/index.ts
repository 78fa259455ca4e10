export * from './service.js';
export * from './log.js';
export * from './http.js';
export * from './json-store.js';
export * from './ids.js';
export * from './clock.js';
