/**
 * A query that reads from this same embedded server over HTTP (`url('http://127.0.0.1:8123/?query=…')`)
 * would wait for itself: the engine runs one query at a time on its chDB session, so the inner
 * request queues behind the query that sent it, and chDB's HTTP client retries until its timeouts
 * run out (5.5 minutes, measured), holding every other request — the sink's inserts included. A
 * server runs the two concurrently; here the query is refused at once, with the reason.
 */
import { ClickHouseError } from './errors.js';
import { unquote, type Token } from './sql-lexer.js';

const URL_FUNCTIONS = new Set(['url', 'urlCluster']);
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '0.0.0.0']);

/** Throws when a url() call of `tokens` names this server (loopback host, port `port`). */
export function refuseSelfRequest(tokens: Token[], port: number | undefined): void {
  if (!port) return;
  for (let i = 0; i + 2 < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'word' || !URL_FUNCTIONS.has(t.text) || tokens[i + 1]!.text !== '(') continue;
    // urlCluster(cluster, url, …): the URL is the first string argument either way
    const arg = tokens.slice(i + 2, i + 5).find((a) => a.kind === 'string');
    if (!arg) continue;
    let target: URL;
    try {
      target = new URL(unquote(arg));
    } catch {
      continue;
    }
    const targetPort = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    if (LOOPBACK.has(target.hostname.toLowerCase()) && targetPort === port) {
      throw new ClickHouseError(
        48,
        'NOT_IMPLEMENTED',
        `url() on this embedded ClickHouse itself (${target.host}) would wait for the query that calls it: the embedded server runs one query at a time. Query the table directly`,
      );
    }
  }
}
