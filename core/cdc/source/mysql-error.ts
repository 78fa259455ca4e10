/**
 * MySQL's error shape: `ERROR <errno> (<SQLSTATE>): <message>`, as the mysql client prints it.
 * The embedded source answers in this shape whatever SQLite said underneath.
 */
export class MySqlError extends Error {
  constructor(
    readonly errno: number,
    readonly sqlState: string,
    message: string,
  ) {
    super(message);
    this.name = 'MySqlError';
  }
  /** The line the mysql command-line client prints. */
  override toString(): string {
    return `ERROR ${this.errno} (${this.sqlState}): ${this.message}`;
  }
  toJSON(): { errno: number; sqlState: string; message: string; text: string } {
    return { errno: this.errno, sqlState: this.sqlState, message: this.message, text: this.toString() };
  }
}

export const mysqlErrors = {
  syntax: (near: string, line = 1) =>
    new MySqlError(1064, '42000', `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${near}' at line ${line}`),
  noSuchTable: (db: string, table: string) => new MySqlError(1146, '42S02', `Table '${db}.${table}' doesn't exist`),
  /** `names`: `db.table`, comma-separated when a DROP TABLE misses several. */
  unknownTable: (names: string) => new MySqlError(1051, '42S02', `Unknown table '${names}'`),
  tableExists: (table: string) => new MySqlError(1050, '42S01', `Table '${table}' already exists`),
  unknownColumn: (column: string, where = 'field list') => new MySqlError(1054, '42S22', `Unknown column '${column}' in '${where}'`),
  duplicate: (value: string, key: string) => new MySqlError(1062, '23000', `Duplicate entry '${value}' for key '${key}'`),
  notNull: (column: string) => new MySqlError(1048, '23000', `Column '${column}' cannot be null`),
  noDefault: (column: string) => new MySqlError(1364, 'HY000', `Field '${column}' doesn't have a default value`),
  columnCount: () => new MySqlError(1136, '21S01', "Column count doesn't match value count at row 1"),
  unknownDatabase: (db: string) => new MySqlError(1049, '42000', `Unknown database '${db}'`),
  noDatabase: () => new MySqlError(1046, '3D000', 'No database selected'),
  databaseExists: (db: string) => new MySqlError(1007, 'HY000', `Can't create database '${db}'; database exists`),
  dropMissingDatabase: (db: string) => new MySqlError(1008, 'HY000', `Can't drop database '${db}'; database doesn't exist`),
  emptyQuery: () => new MySqlError(1065, '42000', 'Query was empty'),
  notSupported: (what: string) => new MySqlError(1235, '42000', `This version of MySQL doesn't yet support '${what}'`),
  general: (message: string) => new MySqlError(1105, 'HY000', message),
};
