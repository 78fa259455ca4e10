/**
 * ENUM and SET members and string defaults with MySQL's escapes, in the schemas the connector
 * writes (column-types.ts), for columns as the embedded source's CREATE TABLE keeps them.
 */
import { describe, expect, it } from 'vitest';
import { parseCreateTable } from '../../../source/mysql-ddl.js';
import { columnSchema } from './column-types.js';

const columns = (ddl: string) => parseCreateTable(ddl).def.columns;

describe('members and defaults with escapes', () => {
  // MySqlAntlrDdlParser.extractEnumAndSetOptions (Debezium): the member's text in SHOW CREATE TABLE
  // (append_unescaped), quotes stripped, a comma escaped as \, and \' and '' undone (escapeOption)
  it("io.debezium.data.Enum's allowed lists each member as Debezium reads it from SHOW CREATE TABLE", () => {
    const [e] = columns("CREATE TABLE t (e ENUM('n\\nl', 'a\\\\b', 'q''s', 'it\\'s', 'c,d', 'x\\ty', 'p\\%q'))");
    expect(columnSchema(e!, 'precise').parameters).toEqual({ allowed: "n\\nl,a\\\\b,q's,it's,c\\,d,x\ty,p\\\\%q" });
  });

  it("io.debezium.data.EnumSet's allowed alike", () => {
    const [s] = columns("CREATE TABLE t (s SET('r\\rt', 'z\\Zz', 'n\\0l'))");
    expect(columnSchema(s!, 'precise').parameters).toEqual({ allowed: 'r\\rt,z\\Zz,n\\0l' });
  });

  it('a string default is the value MySQL stores: its escapes read, a doubled quote one quote', () => {
    const cols = columns("CREATE TABLE t (a VARCHAR(9) DEFAULT 'a\\nb', b VARCHAR(9) DEFAULT 'it''s', c VARCHAR(9) DEFAULT 'a\\\\b\\Z', d VARCHAR(9) DEFAULT \"x\\ty\")");
    expect(cols.map((c) => columnSchema(c, 'precise').default)).toEqual(['a\nb', "it's", 'a\\b\x1a', 'x\ty']);
  });
});
