/**
 * An error as the Relevance workbench shows it: Elasticsearch's own words (type: reason, and
 * where the body went wrong) and one plain line saying what to do.
 */
import { HostError } from '../../../bridge.js';

export interface ShownError {
  /** Elasticsearch's words, or the host's. */
  message: string;
  type?: string;
  line?: number;
  col?: number;
  status?: number;
  /** What it means and what to do, in plain English. */
  plain: string;
}

type EsBody = { error?: { type?: string; reason?: string; line?: number; col?: number; root_cause?: { type?: string; reason?: string; line?: number; col?: number }[] }; status?: number };

export function toShownError(err: unknown): ShownError {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof HostError) {
    const d = err.detail as EsBody | undefined;
    const e = d?.error;
    const cause = e?.root_cause?.[0];
    const line = e?.line ?? cause?.line;
    const col = e?.col ?? cause?.col;
    const type = e?.type;
    return { message, ...(type ? { type } : {}), ...(line ? { line, col } : {}), ...(d?.status ? { status: d.status } : {}), plain: plainLine(err.code, type, message, line, col) };
  }
  return { message, plain: 'Something failed in Loupe itself; the message above says what.' };
}

function plainLine(code: string, type: string | undefined, message: string, line?: number, col?: number): string {
  if (code === 'unavailable' || code === 'network') return 'The search service cannot be reached: start it on the Services page, or check its remote URL in Settings.';
  if (code === 'bad_params') return 'Loupe refused the call before sending it; the message names the parameter.';
  switch (type) {
    case 'parsing_exception':
    case 'x_content_parse_exception':
    case 'json_parse_exception':
      return line ? `The request body has a mistake at line ${line}, column ${col}: it is marked in the editor.` : 'The request body is not a query Elasticsearch understands.';
    case 'index_not_found_exception':
      return 'That index does not exist (any more): pick another in Index, or load the sample data.';
    case 'resource_already_exists_exception':
      return 'An index of that name exists already: delete it first or choose another name.';
    case 'illegal_argument_exception':
      return 'A value in the request is not allowed here; the reason above names it.';
    case 'security_exception':
      return 'The cluster refused the credentials: set a user and password or an API key under Connection.';
    case 'search_phase_execution_exception':
      return 'The query failed while running on the shards; the reason above is the first shard\'s.';
    default:
      if (/not supported/i.test(message)) return 'The embedded engine does not support this; a real Elasticsearch cluster may.';
      return 'Elasticsearch refused the request; the reason above is its own.';
  }
}
