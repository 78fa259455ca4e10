import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClickHouseError } from './errors.js';
import { confineLocalFiles } from './local-files.js';
import { tokenize } from './sql-lexer.js';

const JAIL = '/data/clickhouse/user_files';
const confine = (sql: string) => confineLocalFiles(sql, tokenize(sql), JAIL);
const refusal = (sql: string) => {
  try {
    confine(sql);
  } catch (err) {
    const e = err as ClickHouseError;
    return `${e.code} ${e.name}: ${e.detail}`;
  }
  return 'not refused';
};

describe('confineLocalFiles', () => {
  it('puts a relative file() path inside user_files, as a server resolves it, and leaves the rest of the text alone', () => {
    expect(confine("SELECT * FROM file('in/*.csv', 'CSV', 'a UInt8') -- file('x')")).toBe(`SELECT * FROM file('${JAIL}/in/*.csv', 'CSV', 'a UInt8') -- file('x')`);
    expect(confine("INSERT INTO FUNCTION `file`('out.tsv') SELECT file('a.txt')")).toBe(`INSERT INTO FUNCTION \`file\`('${JAIL}/out.tsv') SELECT file('${JAIL}/a.txt')`);
    expect(confine(`SELECT file('${JAIL}/x') , 'file(' , filename FROM t`)).toBe(`SELECT file('${JAIL}/x') , 'file(' , filename FROM t`);
    expect(confine("SELECT * FROM file('/dev/null', 'CSV', 'a UInt8')")).toContain("file('/dev/null'");
  });

  it("refuses a path outside user_files with the server's DATABASE_ACCESS_DENIED text", () => {
    expect(refusal("SELECT * FROM file('/etc/passwd', 'LineAsString')")).toBe(`291 DATABASE_ACCESS_DENIED: File \`/etc/passwd\` is not inside \`${JAIL}${path.sep}\``);
    expect(refusal("INSERT INTO FUNCTION file('../../../root/.bashrc', 'LineAsString') VALUES ('x')")).toBe(`291 DATABASE_ACCESS_DENIED: File \`/root/.bashrc\` is not inside \`${JAIL}${path.sep}\``);
    expect(refusal("SELECT * FROM file(concat('/etc', '/passwd'))")).toMatch(/^291 DATABASE_ACCESS_DENIED: Embedded ClickHouse takes the path of file\(\) only as a string literal/);
  });

  it("confines the File engine's path, when it has one, the Filesystem database engine's and SQLite's; names match exactly", () => {
    expect(confine('CREATE TABLE f (a UInt8) ENGINE = File(TSV)')).toBe('CREATE TABLE f (a UInt8) ENGINE = File(TSV)');
    expect(confine('CREATE TABLE f (a UInt8) ENGINE = File(TSV, stdin)')).toBe('CREATE TABLE f (a UInt8) ENGINE = File(TSV, stdin)');
    expect(confine("CREATE TABLE f (File String) ENGINE = File(TSV, 'f.tsv')")).toBe(`CREATE TABLE f (File String) ENGINE = File(TSV, '${JAIL}/f.tsv')`);
    expect(refusal("CREATE TABLE f (a UInt8) ENGINE = File(TSV, '/etc/f.tsv')")).toBe(`291 DATABASE_ACCESS_DENIED: File \`/etc/f.tsv\` is not inside \`${JAIL}${path.sep}\``);
    expect(confine("CREATE DATABASE d ENGINE = Filesystem('in')")).toBe(`CREATE DATABASE d ENGINE = Filesystem('${JAIL}/in')`);
    expect(refusal("CREATE DATABASE d ENGINE = Filesystem('/etc')")).toBe(`36 BAD_ARGUMENTS: Path must be inside user-files path: ${JAIL}${path.sep}`);
    // the SQLite database file of sqlite() and of both SQLite engines
    expect(confine("SELECT * FROM sqlite('db.sqlite', 't')")).toBe(`SELECT * FROM sqlite('${JAIL}/db.sqlite', 't')`);
    expect(refusal("CREATE DATABASE s ENGINE = SQLite('/home/u/.mozilla/places.sqlite')")).toBe("481 PATH_ACCESS_DENIED: SQLite database file path '/home/u/.mozilla/places.sqlite' must be inside 'user_files' directory");
    expect(refusal("CREATE TABLE s (a UInt8) ENGINE = SQLite('../x.db', 't')")).toBe("481 PATH_ACCESS_DENIED: SQLite database file path '../x.db' must be inside 'user_files' directory");
    // FILE() is no function (names are case-sensitive): chDB refuses it itself
    expect(confine("SELECT * FROM FILE('/etc/passwd')")).toBe("SELECT * FROM FILE('/etc/passwd')");
  });

  it('refuses INTO OUTFILE and FROM INFILE as a server does over HTTP, but not tables of those names', () => {
    expect(refusal("SELECT 1 INTO OUTFILE '/tmp/x'")).toBe('358 INTO_OUTFILE_NOT_ALLOWED: INTO OUTFILE is not allowed');
    expect(refusal("INSERT INTO t FROM INFILE '/etc/hostname' FORMAT LineAsString")).toBe('78 UNKNOWN_TYPE_OF_QUERY: Query has infile and was send directly to server');
    expect(refusal('INSERT INTO outfile SELECT * FROM infile')).toBe('not refused');
  });
});
