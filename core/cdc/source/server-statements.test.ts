/**
 * What a MySQL client asks of the server itself: SHOW VARIABLES (the checks Debezium's set-up
 * guide has users run), SHOW BINARY LOGS, SHOW TABLE STATUS, INFORMATION_SCHEMA and USER().
 * Shapes and names are MySQL 8.0's (reference manual pages named beside each).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSource } from './embedded-source.js';

let dir: string;
let src: EmbeddedSource;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-server-'));
  src = await EmbeddedSource.open({ dir, now: () => Date.UTC(2026, 0, 1) });
  src.executeSync('demo', "CREATE TABLE orders (id bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, customer_id int NOT NULL, total decimal(10,2) NOT NULL DEFAULT '0.00' COMMENT 'gross', code char(3), note text, UNIQUE KEY uq_code (code), KEY idx_customer (customer_id, total)); INSERT INTO orders (customer_id, total, code) VALUES (1, 9.99, 'a'), (2, 5, 'b')");
});
afterAll(async () => {
  await src.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const query = (sql: string, db: string | null = 'demo') => {
  const r = src.executeSync(db, sql).at(-1)!;
  return { columns: r.columns, rows: r.rows };
};

describe('SHOW VARIABLES', () => {
  it("answers Debezium's prerequisites as a server ready for CDC, booleans as ON/OFF (SHOW VARIABLES, sys_vars.cc)", () => {
    for (const scope of ['', 'GLOBAL ', 'SESSION ']) {
      expect(query(`SHOW ${scope}VARIABLES WHERE Variable_name IN ('log_bin', 'binlog_format', 'binlog_row_image', 'gtid_mode', 'enforce_gtid_consistency')`)).toEqual({
        columns: ['Variable_name', 'Value'],
        rows: [
          ['binlog_format', 'ROW'],
          ['binlog_row_image', 'FULL'],
          ['enforce_gtid_consistency', 'ON'],
          ['gtid_mode', 'ON'],
          ['log_bin', 'ON'],
        ],
      });
    }
    expect(query("SHOW VARIABLES LIKE 'binlog\\_for%'").rows).toEqual([['binlog_format', 'ROW']]);
    expect(query("SHOW VARIABLES LIKE 'AUTOCOMMIT'").rows).toEqual([['autocommit', 'ON']]);
    // SELECT @@ gives the number
    expect(query('SELECT @@autocommit, @@log_bin').rows).toEqual([[1, 1]]);
  });

  it('a WHERE on a column the statement does not have is an unknown column', () => {
    expect(() => query("SHOW VARIABLES WHERE name = 'x'")).toThrow("Unknown column 'name' in 'where clause'");
  });
});

describe('SHOW BINARY LOGS and SHOW TABLE STATUS', () => {
  it('SHOW BINARY LOGS (SHOW MASTER LOGS): each change log file with its size, not encrypted', () => {
    const at = src.position();
    for (const sql of ['SHOW BINARY LOGS', 'SHOW MASTER LOGS']) {
      const r = query(sql);
      expect(r.columns).toEqual(['Log_name', 'File_size', 'Encrypted']);
      expect(r.rows).toEqual([[at.file, at.pos, 'No']]);
    }
  });

  it("SHOW TABLE STATUS: MySQL 8.0's columns, rows counted, the next AUTO_INCREMENT, LIKE and FROM", () => {
    const r = query("SHOW TABLE STATUS FROM demo LIKE 'ord%'");
    expect(r.columns).toEqual(['Name', 'Engine', 'Version', 'Row_format', 'Rows', 'Avg_row_length', 'Data_length', 'Max_data_length', 'Index_length', 'Data_free', 'Auto_increment', 'Create_time', 'Update_time', 'Check_time', 'Collation', 'Checksum', 'Create_options', 'Comment']);
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({ 0: 'orders', 1: 'InnoDB', 3: 'Dynamic', 4: 2, 10: 3, 14: 'utf8mb4_0900_ai_ci' });
    expect(query('SHOW TABLE STATUS').rows.map((row) => row[0])).toEqual(['customers', 'orders']);
    // table names are case-sensitive with lower_case_table_names=0, as in SHOW TABLES LIKE
    expect(query("SHOW TABLE STATUS LIKE 'ORD%'").rows).toEqual([]);
    expect(query("SHOW TABLES LIKE 'ORD%'").rows).toEqual([]);
    expect(query("SHOW TABLE STATUS WHERE Name = 'customers'").rows.map((row) => [row[0], row[10]])).toEqual([['customers', null]]);
  });
});

describe('INFORMATION_SCHEMA', () => {
  it('COLUMNS: the type facts of each column, column names upper-case whatever the query wrote (MySQL 8.0 I_S views)', () => {
    const r = query("SELECT column_name, data_type, column_type, is_nullable, column_default, character_maximum_length, numeric_precision, numeric_scale, column_key, extra, column_comment FROM information_schema.columns WHERE table_schema = 'demo' AND table_name = 'orders' ORDER BY ordinal_position");
    expect(r.columns).toEqual(['COLUMN_NAME', 'DATA_TYPE', 'COLUMN_TYPE', 'IS_NULLABLE', 'COLUMN_DEFAULT', 'CHARACTER_MAXIMUM_LENGTH', 'NUMERIC_PRECISION', 'NUMERIC_SCALE', 'COLUMN_KEY', 'EXTRA', 'COLUMN_COMMENT']);
    expect(r.rows).toEqual([
      ['id', 'bigint', 'bigint unsigned', 'NO', null, null, 20, 0, 'PRI', 'auto_increment', ''],
      ['customer_id', 'int', 'int', 'NO', null, null, 10, 0, 'MUL', '', ''],
      ['total', 'decimal', 'decimal(10,2)', 'NO', '0.00', null, 10, 2, '', '', 'gross'],
      ['code', 'char', 'char(3)', 'YES', null, 3, null, null, 'UNI', '', ''],
      ['note', 'text', 'text', 'YES', null, 65535, null, null, '', '', ''],
    ]);
  });

  it('SCHEMATA, TABLES, STATISTICS, TABLE_CONSTRAINTS and KEY_COLUMN_USAGE', () => {
    expect(query('SELECT schema_name FROM information_schema.schemata ORDER BY 1').rows).toEqual([['demo'], ['information_schema']]);
    expect(query("SELECT table_name, table_type, engine, table_rows, auto_increment FROM INFORMATION_SCHEMA.TABLES WHERE table_schema = 'demo' ORDER BY table_name").rows).toEqual([
      ['customers', 'BASE TABLE', 'InnoDB', 3, null],
      ['orders', 'BASE TABLE', 'InnoDB', 2, 3],
    ]);
    expect(query("SELECT index_name, seq_in_index, column_name, non_unique FROM information_schema.statistics WHERE table_name = 'orders' ORDER BY index_name, seq_in_index").rows).toEqual([
      ['PRIMARY', 1, 'id', 0],
      ['idx_customer', 1, 'customer_id', 1],
      ['idx_customer', 2, 'total', 1],
      ['uq_code', 1, 'code', 0],
    ]);
    expect(query("SELECT constraint_name, constraint_type FROM information_schema.table_constraints WHERE table_name = 'orders' ORDER BY 1").rows).toEqual([
      ['PRIMARY', 'PRIMARY KEY'],
      ['uq_code', 'UNIQUE'],
    ]);
    expect(query("SELECT constraint_name, column_name FROM information_schema.key_column_usage WHERE table_name = 'customers'").rows).toEqual([['PRIMARY', 'id']]);
  });

  it('foreign keys in TABLE_CONSTRAINTS, KEY_COLUMN_USAGE and REFERENTIAL_CONSTRAINTS', () => {
    src.executeSync('demo', 'CREATE TABLE lines (id int primary key, order_id bigint unsigned, CONSTRAINT fk_order FOREIGN KEY (order_id) REFERENCES orders (id) ON DELETE CASCADE)');
    expect(query("SELECT constraint_name, constraint_type FROM information_schema.table_constraints WHERE table_name = 'lines' ORDER BY 1").rows).toEqual([
      ['PRIMARY', 'PRIMARY KEY'],
      ['fk_order', 'FOREIGN KEY'],
    ]);
    expect(query("SELECT column_name, referenced_table_schema, referenced_table_name, referenced_column_name FROM information_schema.key_column_usage WHERE constraint_name = 'fk_order'").rows).toEqual([['order_id', 'demo', 'orders', 'id']]);
    expect(query("SELECT unique_constraint_name, update_rule, delete_rule, table_name, referenced_table_name FROM information_schema.referential_constraints").rows).toEqual([['PRIMARY', 'RESTRICT', 'CASCADE', 'lines', 'orders']]);
    src.executeSync('demo', 'DROP TABLE lines');
  });

  it('USE information_schema, SHOW TABLES in it, an unknown view and SHOW DATABASES', () => {
    expect(query('SHOW FULL TABLES FROM information_schema').rows).toContainEqual(['COLUMNS', 'SYSTEM VIEW']);
    expect(query("SELECT COUNT(*) FROM tables WHERE table_schema = 'demo'", 'information_schema').rows).toEqual([[2]]);
    expect(() => query('SELECT * FROM information_schema.nope')).toThrow("Table 'information_schema.nope' doesn't exist");
    expect(query('SHOW DATABASES').rows).toEqual([['demo'], ['information_schema']]);
  });
});

describe('USER() and CURRENT_USER()', () => {
  it('name the embedded server account', () => {
    expect(query('SELECT USER(), CURRENT_USER(), SESSION_USER(), SYSTEM_USER()').rows).toEqual([['root@localhost', 'root@localhost', 'root@localhost', 'root@localhost']]);
  });
});

describe('SHOW CREATE DATABASE, and the SHOW statements the embedded source does not answer', () => {
  it("prints a database made with the server's defaults as MySQL 8.0 does", () => {
    expect(query('SHOW CREATE DATABASE demo')).toEqual({ columns: ['Database', 'Create Database'], rows: [['demo', "CREATE DATABASE `demo` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci */ /*!80016 DEFAULT ENCRYPTION='N' */"]] });
    expect(query('SHOW CREATE SCHEMA IF NOT EXISTS `demo`').rows[0]![1]).toMatch(/^CREATE DATABASE \/\*!32312 IF NOT EXISTS\*\/ `demo` /);
    expect(() => query('SHOW CREATE DATABASE nope')).toThrow("Unknown database 'nope'");
  });

  it('says a statement MySQL has is not supported (1235) instead of calling it a syntax error', () => {
    for (const [sql, what] of [['SHOW PROFILES', 'SHOW PROFILES'], ['show full processlist', 'SHOW FULL PROCESSLIST'], ["SHOW GLOBAL STATUS LIKE 'Uptime'", 'SHOW GLOBAL STATUS']]) {
      expect(() => query(sql)).toThrow(`This version of MySQL doesn't yet support '${what} in the embedded source'`);
    }
    expect(() => query('SHOW NONSENSE')).toThrow(/You have an error in your SQL syntax/);
  });

  it('says so for stored programs, accounts, replication and file loading too', () => {
    for (const [sql, what] of [
      ['CREATE TRIGGER trg BEFORE INSERT ON customers FOR EACH ROW SET NEW.name = UPPER(NEW.name)', 'CREATE TRIGGER'],
      ['CREATE DEFINER=`root`@`%` PROCEDURE p() SELECT 1', 'CREATE PROCEDURE'],
      ['drop function f', 'DROP FUNCTION'],
      ["CREATE USER 'u'@'%' IDENTIFIED BY 'x'", 'CREATE USER'],
      ['GRANT SELECT ON demo.* TO u', 'GRANT'],
      ['CALL p()', 'CALL'],
      ["LOAD DATA INFILE '/tmp/x.csv' INTO TABLE customers", 'LOAD DATA'],
      ['DROP TEMPORARY TABLE t', 'DROP TEMPORARY TABLE'],
    ]) {
      expect(() => query(sql)).toThrow(`This version of MySQL doesn't yet support '${what} in the embedded source'`);
    }
    expect(() => query('CREATE TRIGGERS x')).toThrow(/You have an error in your SQL syntax/);
  });
});

describe('DO, CONNECTION_ID() and the statements kept out', () => {
  it('DO evaluates and returns nothing; CONNECTION_ID() is the session thread', () => {
    expect(src.executeSync('demo', 'DO 1 + 1')[0]).toMatchObject({ kind: 'ok', affectedRows: 0 });
    expect(() => src.executeSync('demo', 'DO nope')).toThrow("Unknown column 'nope'");
    const [a, b] = [query('SELECT CONNECTION_ID()').rows[0]![0], query('SELECT CONNECTION_ID()').rows[0]![0]];
    expect(typeof a).toBe('number');
    expect(b).not.toBe(a);
  });

  it('ROLLBACK TO a savepoint is never taken for a whole ROLLBACK; prepared statements last as long as the session', () => {
    src.executeSync('demo', 'CREATE TABLE sp (id INT PRIMARY KEY)');
    expect(() => src.executeSync('demo', 'BEGIN; INSERT INTO sp VALUES (1); ROLLBACK TO SAVEPOINT a')).toThrow('SAVEPOINT a does not exist');
    src.executeSync('demo', 'BEGIN; INSERT INTO sp VALUES (1); SAVEPOINT a; INSERT INTO sp VALUES (2); ROLLBACK WORK TO a; COMMIT');
    expect(src.executeSync('demo', "PREPARE s FROM 'SELECT id FROM sp'; EXECUTE s").at(-1)!.rows).toEqual([[1]]);
    expect(() => src.executeSync('demo', 'EXECUTE s')).toThrow('Unknown prepared statement handler (s) given to EXECUTE');
  });
});
