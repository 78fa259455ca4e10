/**
 * An embedded source of its own for each test, in a temporary directory, with the statements a
 * file's tests start from already run, and the helpers those tests share: statements in the
 * test database, the rows of a query, the MySQL error a statement gives, a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { EmbeddedSource } from '../embedded-source.js';
import { MySqlError } from '../mysql-error.js';
import type { StatementResult } from '../types.js';

export interface FreshSourceOptions {
  /** The database `run` uses. */
  database: string;
  /** Statements run before each test (with no database selected). */
  setup: string;
  /** Whether the source starts with the demo database (default false). */
  seedDemo?: boolean;
}

export class FreshSource {
  src!: EmbeddedSource;
  dir = '';

  constructor(private readonly opts: FreshSourceOptions) {}

  /** Runs statements in the test database. */
  run = (sql: string): StatementResult[] => this.src.executeSync(this.opts.database, sql);

  /** The rows of the last statement. */
  rows = (sql: string): unknown[][] => this.run(sql).at(-1)!.rows;

  /** The MySQL error line a statement fails with. */
  errorOf = (sql: string): string => {
    try {
      this.run(sql);
    } catch (err) {
      expect(err).toBeInstanceOf(MySqlError);
      return String(err);
    }
    throw new Error(`expected an error from ${sql}`);
  };

  /** Closes the source and opens it on the same directory; `fromLog` removes the snapshots first, so that the change log alone rebuilds the databases. */
  async restart(fromLog = false): Promise<void> {
    await this.src.close();
    if (fromLog) fs.rmSync(path.join(this.dir, 'databases'), { recursive: true, force: true });
    this.src = await EmbeddedSource.open({ dir: this.dir, seedDemo: false });
  }

  async open(): Promise<void> {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `loupe-${this.opts.database}-`));
    this.src = await EmbeddedSource.open({ dir: this.dir, seedDemo: this.opts.seedDemo ?? false });
    this.src.executeSync(null, this.opts.setup);
  }

  async close(): Promise<void> {
    await this.src.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A fresh source before each test of the file, closed and removed after it. */
export function freshSourceForEachTest(opts: FreshSourceOptions): FreshSource {
  const fresh = new FreshSource(opts);
  beforeEach(() => fresh.open());
  afterEach(() => fresh.close());
  return fresh;
}
