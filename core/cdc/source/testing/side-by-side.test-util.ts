/**
 * A private MariaDB and a fresh embedded source, each given the same setup script, for the tests
 * of one describe block (the hooks that start and stop them are registered where this is called).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

/** A script for both: the rows of its last statement must be the server's, or, where MySQL 8.0 answers otherwise than MariaDB, `mysql`. */
export interface CaseBeside {
  what: string;
  sql: string;
  /** MySQL 8.0's rows where MariaDB 10.11's differ (the case says where they come from). */
  mysql?: unknown[][];
}

/**
 * A test for each case, in the describe block this is called in. `asServer` may read the server's
 * rows as the embedded source's shape (a DECIMAL's text as the number it is, say) before they
 * are compared.
 */
export function casesBeside(pair: SideBySide, database: string, cases: readonly CaseBeside[], asServer: (server: unknown[][], embedded: unknown[][]) => unknown[][] = (s) => s): void {
  const last = async (src: RemoteSource | EmbeddedSource, sql: string) => (await src.execute(database, sql)).at(-1)!.rows;
  for (const c of cases) {
    it(`${c.what}: ${c.sql}${c.mysql ? ' (MySQL 8.0 answers otherwise)' : ''}`, async () => {
      const fromServer = await last(pair.real, c.sql);
      const fromEmbedded = await last(pair.embedded, c.sql);
      if (c.mysql) {
        expect(fromServer).not.toEqual(c.mysql);
        expect(fromEmbedded).toEqual(c.mysql);
      } else expect(fromEmbedded).toEqual(asServer(fromServer, fromEmbedded));
    });
  }
}
