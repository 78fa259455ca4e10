/**
 * Orama 3 (BM25 variant over a radix tree). The tag is an `enum` property, so the filtered
 * query uses Orama's own `where` clause. threshold 1 (its default) returns documents that
 * match any of the terms, as a match query does.
 */
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import type { BenchDoc, BenchEngine, BenchQuery } from '../types.js';
import { inChunks, TOP_K } from '../types.js';

const SCHEMA = { text: 'string', tag: 'enum' } as const;

export function createOrama(): BenchEngine {
  let db: AnyOrama | undefined;
  return {
    name: 'Orama',
    async build(docs: BenchDoc[], onProgress) {
      const orama = create({ schema: SCHEMA });
      // Orama takes the document's own `id` as its id and indexes only the schema's fields.
      await inChunks(
        docs,
        async (chunk) => {
          await insertMultiple(orama, chunk as unknown as Array<{ id: string; text: string; tag: string }>, chunk.length);
        },
        onProgress,
      );
      db = orama;
    },
    async search(query: BenchQuery) {
      if (!db) throw new Error('Orama index not built');
      const result = await search(db, {
        term: query.terms.join(' '),
        properties: ['text'],
        limit: TOP_K,
        ...(query.tag === undefined ? {} : { where: { tag: { eq: query.tag } } }),
      });
      return result.hits.map((h) => String(h.id));
    },
  };
}
