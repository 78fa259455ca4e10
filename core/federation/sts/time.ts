/** AWS's timestamp formats. */

/** RFC 3339 without milliseconds, as STS writes Expiration: 2026-01-01T12:00:00Z */
export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** SigV4's basic format: 20260101T120000Z */
export const amzBasic = (ms: number): string => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
