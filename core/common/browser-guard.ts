/**
 * What a web page can make a browser send to a service on 127.0.0.1, and how to refuse it.
 *
 * Binding to the loopback interface keeps other machines out, not the user's browser: any page
 * can POST a text/plain body to http://127.0.0.1:8123 (no preflight), and a page whose own name
 * is rebound to 127.0.0.1 talks to the service as its own origin. The embedded ClickHouse runs
 * whatever SQL such a body holds (DROP DATABASE, or writing files through chDB, which has no
 * user_files jail), and Kafka Connect would take a body-less POST. So the services that no
 * browser needs (ClickHouse's HTTP interface, the Connect REST API) refuse:
 *
 * - a Host header that does not name the loopback interface (DNS rebinding), and
 * - an Origin header of any other site (cross-site requests; curl, the JDBC and Node clients and
 *   Kafka Connect send none).
 *
 * LOUPE_ALLOWED_ORIGINS (comma-separated origins) lets a browser SQL tool in; LOUPE_ALLOWED_HOSTS
 * (comma-separated host names) a name the user maps to 127.0.0.1 in /etc/hosts.
 */
import type http from 'node:http';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export interface BrowserGuard {
  /** Why the request is refused, or undefined when it may go on. */
  refusal(req: http.IncomingMessage): string | undefined;
}

/** `port` is the service's own, for its own origin; `env` is read once. */
export function browserGuard(port: () => number, env: NodeJS.ProcessEnv = process.env): BrowserGuard {
  const list = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const hosts = new Set([...LOOPBACK_NAMES, ...list(env.LOUPE_ALLOWED_HOSTS).map((h) => h.toLowerCase())]);
  const origins = new Set(list(env.LOUPE_ALLOWED_ORIGINS).map((o) => o.replace(/\/+$/, '').toLowerCase()));
  return {
    refusal(req) {
      const host = req.headers.host;
      // HTTP/1.0 clients may send no Host; a browser always sends one
      if (host !== undefined && !hosts.has(hostName(host))) {
        return `Host header "${host}" does not name this machine's loopback interface (a page rebound to 127.0.0.1 sends its own name). Connect to 127.0.0.1 or localhost, or list the name in LOUPE_ALLOWED_HOSTS`;
      }
      const origin = req.headers.origin;
      if (origin !== undefined && !origins.has(origin.toLowerCase()) && !LOOPBACK_NAMES.some((n) => origin.toLowerCase() === `http://${n}:${port()}`)) {
        return `Requests from origin ${origin} are refused: a web page may not drive this service from the browser. List the origin in LOUPE_ALLOWED_ORIGINS to let a browser tool in`;
      }
      return undefined;
    },
  };
}

/** The name part of a Host header: `127.0.0.1:8123` → `127.0.0.1`, `[::1]:8123` → `[::1]`. */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}
