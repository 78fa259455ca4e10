/**
 * Debezium MySQL schema change events (include.schema.changes=true, the default): to the topic
 * named after the topic prefix, key `{databaseName}`, value `{source, databaseName, schemaName,
 * ddl, tableChanges}` with the table structure after the change (schemas of Debezium 1.9's
 * SchemaChangeKey / SchemaChangeValue / schema.Change / schema.Table / schema.Column).
 */
import type { Schema } from '../../plugin.js';
import type { TableDef } from '../../../source/types.js';
import { SOURCE_SCHEMA } from './envelope.js';
import { sourceColumnType } from './source-column-type.js';
import { charsetOf } from '../../../source/mysql-ddl.js';

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

/** A schema.Change; a DROP carries the table as it was (Debezium 1.9's ConnectTableChangeSerializer). */
export function tableChange(db: string, def: TableDef, type: 'CREATE' | 'ALTER' | 'DROP'): Record<string, unknown> {
  return {
    type,
    id: `"${db}"."${def.name}"`,
    table: {
      defaultCharsetName: def.options?.charset ?? 'utf8mb4',
      primaryKeyColumnNames: [...def.primaryKey],
      columns: def.columns.map((c, i) => {
        const { typeName, jdbcType, length, scale } = sourceColumnType(c);
        return {
          name: c.name,
          jdbcType,
          nativeType: null,
          typeName,
          // ColumnEditor.type(name): the expression is the name
          typeExpression: typeName,
          charsetName: /char|text|enum|set/.test(c.baseType) ? (c.collation && c.collation !== 'binary' ? charsetOf(c.collation) : (def.options?.charset ?? 'utf8mb4')) : null,
          length,
          scale,
          position: i + 1,
          optional: c.nullable,
          autoIncremented: c.autoIncrement,
          generated: c.autoIncrement,
          comment: c.comment ?? null,
        };
      }),
      comment: def.options?.comment ?? null,
    },
  };
}
