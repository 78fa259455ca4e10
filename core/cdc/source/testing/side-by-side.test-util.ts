/**
 * A private MariaDB and a fresh embedded source, each given the same setup script, for the tests
 * of one describe block (the hooks that start and stop them are registered where this is called).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { EmbeddedSource } from '../embedded-source.js';
import { RemoteSource } from '../remote-source.js';
import { startMariaDb, type MariaDbServer } from './mariadb-server.js';

export interface SideBySide {
  /** The MariaDB server, through the remote source. */
  readonly real: RemoteSource;
  readonly embedded: EmbeddedSource;
}

export function sideBySide(name: string, setup: string): SideBySide {
  let server: MariaDbServer | undefined;
  let real: RemoteSource | undefined;
  let embedded: EmbeddedSource | undefined;
  let dir = '';
  beforeAll(async () => {
    server = await startMariaDb();
    real = new RemoteSource({ host: server.host, port: server.port, user: server.user, password: server.password });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `loupe-${name}-vs-`));
    embedded = await EmbeddedSource.open({ dir, seedDemo: false });
    await real.execute(null, setup);
    await embedded.execute(null, setup);
  }, 90_000);
  afterAll(async () => {
    await embedded?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get real() {
      return real!;
    },
    get embedded() {
      return embedded!;
    },
  };
}
