export * from './types.js';
export * from './profile-file.js';
export * from './credential-process.js';
export * from './env-lines.js';
export * from './export-formats.js';
export * from './sign-in-profiles.js';
export * from './credential-cache.js';
export * from './token-client.js';
