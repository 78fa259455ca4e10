import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer, listen, sendJson } from './http.js';

let server: http.Server | undefined;
afterEach(async () => {
  if (server) await closeServer(server);
  server = undefined;
});

describe('sendJson', () => {
  it('writes a bigint as its exact digits (JSON.stringify would throw) and every other value as JSON.stringify does', async () => {
    server = http.createServer((_req, res) => sendJson(res, 200, { id: 4611686018427387907n, min: -9223372036854775808n, n: 42, x: 1.5, s: 'a' }));
    const port = await listen(server, '127.0.0.1', 0, 'test');
    const res = await fetch(`http://127.0.0.1:${port}/`);
    const text = await res.text();
    expect(text).toBe('{"id":4611686018427387907,"min":-9223372036854775808,"n":42,"x":1.5,"s":"a"}');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  });
});
