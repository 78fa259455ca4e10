import { describe, expect, it } from 'vitest';
import { defaultColumns, parseDocuments, rankChanges, type Hit } from './store.js';

describe('loading a picked file', () => {
  it('reads NDJSON, _bulk bodies (the action line gives the id), and JSON arrays', () => {
    expect(parseDocuments('{"a":1}\n\n{"a":2}\n')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parseDocuments('{"index":{"_id":"x1"}}\n{"a":1}\n{"create":{}}\n{"a":2}\n')).toEqual([{ _id: 'x1', a: 1 }, { a: 2 }]);
    expect(parseDocuments('[{"a":1}, 3, {"b":2}]')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(parseDocuments('{\n  "one": "pretty-printed object"\n}')).toEqual([{ one: 'pretty-printed object' }]);
  });

  it('keeps a line that is not JSON as a document Elasticsearch will reject and count', () => {
    expect(parseDocuments('{"a":1}\n{oops\n')).toEqual([{ a: 1 }, { __unparsable__: '{oops' }]);
  });
});

describe('rank changes between BM25 and classic', () => {
  const hits = (...ids: string[]): Hit[] => ids.map((id, i) => ({ _id: id, _score: 10 - i }));
  it('marks each hit up, down, same, new or gone', () => {
    const rows = rankChanges(hits('a', 'b', 'c', 'd'), hits('b', 'a', 'c', 'e'));
    expect(rows.map((r) => [r.id, r.move, r.bm25Rank, r.classicRank])).toEqual([
      ['a', 'down', 1, 2],
      ['b', 'up', 2, 1],
      ['c', 'same', 3, 3],
      ['d', 'gone', 4, undefined],
      ['e', 'new', undefined, 4],
    ]);
  });
});

describe('the hits table', () => {
  it('starts with the prose and number fields people look at first', () => {
    const fields = ['@timestamp', 'message', 'message.keyword', 'http.response.bytes', 'user.id'].map((path) => ({ path, type: 'x', ...(path.endsWith('.keyword') ? { multiFieldOf: 'message' } : {}) }));
    const info = { name: 'i', uuid: '', health: '', docs: 0, deletedDocs: 0, storeSize: '', similarity: { type: 'BM25' }, settings: {}, mappings: {}, fields };
    expect(defaultColumns(info)).toEqual(['message', 'http.response.bytes', '@timestamp']);
  });
});
