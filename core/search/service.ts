/**
 * The embedded search service: the engine (indexes under ctx.dataDir) behind Elasticsearch's
 * REST API on ctx.host:ctx.port. The handle's `api` is the engine itself, for the host.
 */
import type { ServiceContext, ServiceHandle } from '../common/service.js';
import { SearchEngine } from './engine.js';
import { startRestServer } from './rest/server.js';

export type SearchServiceApi = SearchEngine;

export async function startSearchService(ctx: ServiceContext): Promise<ServiceHandle<SearchServiceApi>> {
  const engine = new SearchEngine({ dataDir: ctx.dataDir });
  let server;
  try {
    server = await startRestServer(engine, ctx.host, ctx.port, ctx.log);
  } catch (err) {
    engine.close();
    throw err;
  }
  let closed = false;
  const url = `http://${ctx.host}:${server.port}`;
  ctx.log.info('search listening', { url, indices: engine.listIndices().length });
  return {
    url,
    api: engine,
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
      engine.close();
    },
  };
}
