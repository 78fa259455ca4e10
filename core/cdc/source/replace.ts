/**
 * REPLACE as MySQL writes it to the binlog (sql_insert.cc, write_record). MySQL tries the insert;
 * on a duplicate it looks at the key that failed, which InnoDB reports in key order. When that key
 * is the table's last unique key (and no foreign key references the table, and it has no delete
 * trigger) the conflicting row is updated in place to the new row: one Update_rows event, none at
 * all when the row is the same. Otherwise the conflicting row is deleted and the insert tried
 * again. So the rows conflicting on earlier keys are deleted, each in key order, and the row
 * conflicting on the last unique key becomes the new row.
 *
 * MariaDB 10.11's binlog (binlog_format=ROW, decoded with mariadb-binlog -v) is the reference:
 *   PRIMARY KEY only, the id taken           → Update_rows (affected rows 2)
 *   PRIMARY KEY only, the same row again     → no row event (affected rows 1)
 *   PRIMARY KEY + UNIQUE uq, conflict on id  → Delete_rows, Write_rows (2)
 *   PRIMARY KEY + UNIQUE uq, conflict on uq  → Update_rows, the id changing too (2)
 *   both, with two different rows            → Delete_rows (the id's row), Update_rows (uq's row) (3)
 *   AUTO_INCREMENT id left out, uq taken     → Update_rows giving the row the next id (2)
 *   UNIQUE (nullable col) declared before UNIQUE (NOT NULL col): the NOT NULL key comes first,
 *   so a conflict on it is a Delete + Write and one on the nullable key an Update.
 *
 * On SQLite: the statement stays `INSERT OR REPLACE` and two triggers per table, armed only while
 * a REPLACE runs (`__loupe_replace.active`), do what MySQL does. BEFORE INSERT deletes the rows
 * conflicting on the keys before the last (their capture trigger logs the deletes) and deletes the
 * row on the last key too, remembering it (`victim`) and its logged delete (`entry`): SQLite then
 * inserts the new row itself, handing out the AUTO_INCREMENT value and LAST_INSERT_ID as MySQL
 * does. AFTER INSERT turns that delete into the update (or drops it when the row is the same,
 * counted in `same`, which MySQL counts as one affected row), and gives the new row the old row's
 * rowid, so that the change log's rowids replay onto a snapshot. The capture trigger logs no
 * insert while `victim` is set.
 */
import { aliasesRowid, keysInMySqlOrder, q, type IndexDef, type TableDef } from './mysql-ddl.js';

/** Per-database state of the REPLACE being run; one row. */
export const REPLACE_STATE_DDL = 'CREATE TABLE IF NOT EXISTS __loupe_replace (active INTEGER NOT NULL, victim INTEGER, entry INTEGER, same INTEGER NOT NULL)';

/** The capture trigger's AFTER INSERT condition: the insert is not a REPLACE's in-place update. */
export const NOT_REPLACING_A_ROW = '(SELECT victim FROM __loupe_replace) IS NULL';

/**
 * The unique keys in MySQL's order (sql_table.cc, sort_keys): unique keys whose columns are all
 * NOT NULL before those with a nullable column, PRIMARY first among them, otherwise as declared.
 * (A key added later by ALTER TABLE can be checked in another order by InnoDB: MariaDB then
 * deletes both conflicting rows. The embedded source keeps to this order.)
 */
export function uniqueKeysInMySqlOrder(def: TableDef): IndexDef[] {
  return keysInMySqlOrder(def).filter((k) => k.unique);
}

/** The REPLACE triggers of a table (none for a table without unique keys: REPLACE only inserts). */
export function replaceTriggers(def: TableDef, image: (alias: 'NEW') => string): string[] {
  const keys = uniqueKeysInMySqlOrder(def);
  const last = keys.pop();
  if (!last) return [];
  const t = q(def.name);
  const name = (prefix: string) => q(`${prefix}_${def.name}`);
  const aliased = aliasesRowid(def);
  // SQLite shows a BEFORE INSERT trigger -1 for an AUTO_INCREMENT id it has yet to hand out
  // (NULL or left out), which conflicts with nothing
  const auto = aliased ? def.primaryKey[0]! : undefined;
  const same = (cols: string[]) => cols.map((c) => `${q(c)} = NEW.${q(c)}`).join(' AND ') + (auto && cols.includes(auto) ? ` AND NEW.${q(auto)} <> -1` : '');
  const entry = '(SELECT entry FROM __loupe_replace)';
  const victim = '(SELECT victim FROM __loupe_replace)';
  const before = [
    ...keys.map((k) => `DELETE FROM ${t} WHERE ${same(k.columns)}`),
    `UPDATE __loupe_replace SET victim = (SELECT rowid FROM ${t} WHERE ${same(last.columns)}), entry = NULL`,
    `DELETE FROM ${t} WHERE rowid = ${victim}`,
    `UPDATE __loupe_replace SET entry = (SELECT max(id) FROM __loupe_changes WHERE tbl = '${def.name.replace(/'/g, "''")}' AND op = 'd' AND rid = victim) WHERE victim IS NOT NULL`,
  ];
  const after = [
    `UPDATE __loupe_replace SET same = same + 1 WHERE (SELECT b FROM __loupe_changes WHERE id = entry) IS ${image('NEW')}`,
    `DELETE FROM __loupe_changes WHERE id = ${entry} AND b IS ${image('NEW')}`,
    `UPDATE __loupe_changes SET op = 'u', a = ${image('NEW')} WHERE id = ${entry}`,
    // an AUTO_INCREMENT id is the rowid: the update's new id moves the row on replay as here
    ...(aliased ? [] : [`UPDATE ${t} SET rowid = ${victim} WHERE rowid = NEW.rowid AND NEW.rowid <> ${victim}`]),
  ];
  return [
    `CREATE TRIGGER ${name('__loupe_rpb')} BEFORE INSERT ON ${t} WHEN (SELECT active FROM __loupe_replace) = 1 BEGIN ${before.join('; ')}; END`,
    `CREATE TRIGGER ${name('__loupe_rpa')} AFTER INSERT ON ${t} WHEN ${victim} IS NOT NULL BEGIN ${after.join('; ')}; END`,
  ];
}
