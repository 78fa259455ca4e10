/**
 * The embedded source's own address. A connector whose database.hostname and database.port name
 * it captures the embedded source; any other address is a real MySQL or MariaDB server.
 */

/** Where the embedded source is when the host gives it no port of its own: MySQL's port on loopback (in-process use, as tests do). */
export const EMBEDDED_SOURCE_DEFAULT_ADDRESS = { host: '127.0.0.1', port: 3306 } as const;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Whether `hostname`:`port` is the embedded source at `address` (any loopback name for its host). */
export function isEmbeddedAddress(hostname: string, port: number, address: { host: string; port: number }): boolean {
  const h = hostname.trim().toLowerCase();
  const isOwnHost = h === address.host.toLowerCase() || (LOOPBACK.has(h) && LOOPBACK.has(address.host.toLowerCase()));
  return isOwnHost && port === address.port;
}
