export * from './types.js';
export * from './profile-file.js';
export * from './credential-process.js';
export * from './env-lines.js';
