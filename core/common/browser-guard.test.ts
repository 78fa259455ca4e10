import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { browserGuard } from './browser-guard.js';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as http.IncomingMessage;

describe('browserGuard', () => {
  const guard = browserGuard(() => 8123, {});

  it('lets in what clients outside a browser send: a loopback Host and no Origin, or no Host at all', () => {
    for (const host of ['127.0.0.1:8123', 'localhost:8123', 'LOCALHOST', '[::1]:8123', '127.0.0.1']) expect(guard.refusal(req({ host }))).toBeUndefined();
    expect(guard.refusal(req({}))).toBeUndefined();
  });

  it("refuses a Host that names something else (a page's name rebound to 127.0.0.1)", () => {
    expect(guard.refusal(req({ host: 'evil.example:8123' }))).toMatch(/^Host header "evil\.example:8123" does not name this machine's loopback interface/);
    expect(guard.refusal(req({ host: '127.0.0.1.evil.example' }))).toMatch(/LOUPE_ALLOWED_HOSTS/);
  });

  it("refuses another site's Origin, and takes the service's own", () => {
    expect(guard.refusal(req({ host: '127.0.0.1:8123', origin: 'https://evil.example' }))).toMatch(/^Requests from origin https:\/\/evil\.example are refused/);
    expect(guard.refusal(req({ host: '127.0.0.1:8123', origin: 'null' }))).toMatch(/origin null/);
    expect(guard.refusal(req({ host: '127.0.0.1:8123', origin: 'http://127.0.0.1:5170' }))).toMatch(/refused/);
    expect(guard.refusal(req({ host: '127.0.0.1:8123', origin: 'http://127.0.0.1:8123' }))).toBeUndefined();
    expect(guard.refusal(req({ host: 'localhost:8123', origin: 'http://localhost:8123' }))).toBeUndefined();
  });

  it('lets in the origins and host names the user lists', () => {
    const open = browserGuard(() => 8123, { LOUPE_ALLOWED_ORIGINS: 'https://tabix.io/, http://localhost:3000', LOUPE_ALLOWED_HOSTS: 'clickhouse' });
    expect(open.refusal(req({ host: 'clickhouse:8123', origin: 'https://tabix.io' }))).toBeUndefined();
    expect(open.refusal(req({ host: '127.0.0.1:8123', origin: 'http://localhost:3000' }))).toBeUndefined();
    expect(open.refusal(req({ host: '127.0.0.1:8123', origin: 'https://evil.example' }))).toMatch(/refused/);
  });
});
