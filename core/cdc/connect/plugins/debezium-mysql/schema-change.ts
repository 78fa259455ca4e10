/**
 * Debezium MySQL schema change events (include.schema.changes=true, the default): to the topic
 * named after the topic prefix, key `{databaseName}`, value `{source, databaseName, schemaName,
 * ddl, tableChanges}` with the table structure after the change (schemas of Debezium 1.9's
 * SchemaChangeKey / SchemaChangeValue / schema.Change / schema.Table / schema.Column).
 */
import type { Schema } from '../../plugin.js';
import type { TableDef } from '../../../source/types.js';
import { SOURCE_SCHEMA } from './envelope.js';

export const SCHEMA_CHANGE_KEY: Schema = {
  type: 'struct',
  optional: false,
  name: 'io.debezium.connector.mysql.SchemaChangeKey',
  fields: [{ type: 'string', optional: false, field: 'databaseName' }],
};

const COLUMN: Schema = {
  type: 'struct',
  optional: false,
  name: 'io.debezium.connector.schema.Column',
  fields: [
    { type: 'string', optional: false, field: 'name' },
    { type: 'int32', optional: false, field: 'jdbcType' },
    { type: 'int32', optional: true, field: 'nativeType' },
    { type: 'string', optional: false, field: 'typeName' },
    { type: 'string', optional: true, field: 'typeExpression' },
    { type: 'string', optional: true, field: 'charsetName' },
    { type: 'int32', optional: true, field: 'length' },
    { type: 'int32', optional: true, field: 'scale' },
    { type: 'int32', optional: false, field: 'position' },
    { type: 'boolean', optional: true, field: 'optional' },
    { type: 'boolean', optional: true, field: 'autoIncremented' },
    { type: 'boolean', optional: true, field: 'generated' },
    { type: 'string', optional: true, field: 'comment' },
  ],
};

const TABLE: Schema = {
  type: 'struct',
  optional: false,
  name: 'io.debezium.connector.schema.Table',
  fields: [
    { type: 'string', optional: true, field: 'defaultCharsetName' },
    { type: 'array', optional: true, items: { type: 'string', optional: false }, field: 'primaryKeyColumnNames' },
    { type: 'array', optional: false, items: COLUMN, field: 'columns' },
    { type: 'string', optional: true, field: 'comment' },
  ],
};

export const SCHEMA_CHANGE_VALUE: Schema = {
  type: 'struct',
  optional: false,
  name: 'io.debezium.connector.mysql.SchemaChangeValue',
  fields: [
    { ...SOURCE_SCHEMA, field: 'source' },
    { type: 'string', optional: true, field: 'databaseName' },
    { type: 'string', optional: true, field: 'schemaName' },
    { type: 'string', optional: true, field: 'ddl' },
    {
      type: 'array',
      optional: false,
      items: {
        type: 'struct',
        optional: false,
        name: 'io.debezium.connector.schema.Change',
        fields: [
          { type: 'string', optional: false, field: 'type' },
          { type: 'string', optional: false, field: 'id' },
          { ...TABLE, field: 'table' },
        ],
      },
      field: 'tableChanges',
    },
  ],
};

/** java.sql.Types codes Debezium reports for MySQL column types. */
const JDBC: Record<string, number> = {
  bit: -7, tinyint: -6, bool: -6, boolean: -6, smallint: 5, mediumint: 4, int: 4, integer: 4, bigint: -5, serial: -5,
  float: 6, double: 8, real: 8, decimal: 3, numeric: 3, dec: 3, fixed: 3,
  date: 91, time: 92, datetime: 93, timestamp: 2014, year: 4,
  char: 1, varchar: 12, tinytext: 12, text: 12, mediumtext: 12, longtext: 12, enum: 1, set: 1, json: 1111,
  binary: -2, varbinary: -3, tinyblob: -3, blob: -4, mediumblob: -4, longblob: -4,
};

/** A schema.Change; a DROP carries the table as it was (Debezium 1.9's ConnectTableChangeSerializer). */
export function tableChange(db: string, def: TableDef, type: 'CREATE' | 'ALTER' | 'DROP'): Record<string, unknown> {
  return {
    type,
    id: `"${db}"."${def.name}"`,
    table: {
            defaultCharsetName: 'utf8mb4',
            primaryKeyColumnNames: [...def.primaryKey],
            columns: def.columns.map((c, i) => ({
              name: c.name,
              jdbcType: JDBC[c.baseType] ?? 1111,
              nativeType: null,
              typeName: c.baseType.toUpperCase() + (c.unsigned ? ' UNSIGNED' : ''),
              typeExpression: c.baseType.toUpperCase() + (c.unsigned ? ' UNSIGNED' : ''),
              charsetName: /char|text|enum|set/.test(c.baseType) ? 'utf8mb4' : null,
              length: c.args[0] !== undefined && /^\d+$/.test(c.args[0]) ? Number(c.args[0]) : null,
              scale: c.args[1] !== undefined && /^\d+$/.test(c.args[1]) ? Number(c.args[1]) : null,
              position: i + 1,
              optional: c.nullable,
              autoIncremented: c.autoIncrement,
              generated: c.autoIncrement,
              comment: c.comment ?? null,
            })),
            comment: null,
          },
  };
}
