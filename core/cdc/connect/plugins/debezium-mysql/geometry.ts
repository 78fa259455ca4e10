/**
 * MySQL's spatial columns as Debezium 1.9.8 carries them (tag v1.9.8.Final): a POINT column is an
 * io.debezium.data.geometry.Point struct {x, y, wkb, srid}, every other spatial type an
 * io.debezium.data.geometry.Geometry struct {wkb, srid} (MySqlValueConverters.schemaBuilder and
 * converter, matched on the type name, GEOMCOLLECTION too). The column's bytes are MySQL's
 * internal format, which MySqlGeometry.fromBytes splits into the SRID (a little-endian int; 0 is
 * "unset", null) and the WKB after it. Geometry.builder() is optional() whatever the column says;
 * Point.builder() is not, so a NOT NULL POINT column has a required field.
 */
import { ConnectException, type Schema } from '../../plugin.js';

export const GEOMETRY_SCHEMA_NAME = 'io.debezium.data.geometry.Geometry';
export const POINT_SCHEMA_NAME = 'io.debezium.data.geometry.Point';

const WKB_POINT_SIZE = 1 + 4 + 8 + 8;

/** MySqlValueConverters.matches over the spatial type names: POINT, or one of the Geometry ones. */
export function spatialSchemaKind(typeName: string): 'point' | 'geometry' | undefined {
  const t = typeName.toUpperCase();
  if (t === 'POINT') return 'point';
  if (['GEOMETRY', 'LINESTRING', 'POLYGON', 'MULTIPOINT', 'MULTILINESTRING', 'MULTIPOLYGON', 'GEOMETRYCOLLECTION', 'GEOMCOLLECTION'].includes(t) || t.endsWith('.GEOMCOLLECTION')) return 'geometry';
  return undefined;
}

/** Point.builder() and Geometry.builder(), the column's optionality added as TableSchemaBuilder adds it (optional only ever turned on). */
export function spatialSchema(kind: 'point' | 'geometry', nullable: boolean): Schema {
  if (kind === 'point') {
    return {
      type: 'struct',
      optional: nullable,
      name: POINT_SCHEMA_NAME,
      version: 1,
      doc: 'Geometry (POINT)',
      fields: [
        { type: 'float64', optional: false, field: 'x' },
        { type: 'float64', optional: false, field: 'y' },
        { type: 'bytes', optional: true, field: 'wkb' },
        { type: 'int32', optional: true, field: 'srid' },
      ],
    };
  }
  return {
    type: 'struct',
    optional: true,
    name: GEOMETRY_SCHEMA_NAME,
    version: 1,
    doc: 'Geometry',
    fields: [
      { type: 'bytes', optional: false, field: 'wkb' },
      { type: 'int32', optional: true, field: 'srid' },
    ],
  };
}

/** MySqlGeometry.fromBytes: the SRID (null for 0) and the WKB. */
function fromMySqlBytes(bytes: Buffer): { srid: number | null; wkb: Buffer } {
  const srid = bytes.readInt32LE(0);
  return { srid: srid === 0 ? null : srid, wkb: bytes.subarray(4) };
}

/**
 * A spatial column's value (hex text of the stored bytes, as the embedded source hands binary
 * values on; empty or null for NULL) as the Connect struct: bytes as base64, as Connect values
 * carry them. A POINT column whose WKB is no 2D point fails as convertPoint does.
 */
export function spatialValue(kind: 'point' | 'geometry', column: string, v: unknown): Record<string, unknown> | null {
  if (v === null || v === undefined || v === '') return null;
  const { srid, wkb } = fromMySqlBytes(Buffer.from(String(v), 'hex'));
  if (kind === 'geometry') return { wkb: wkb.toString('base64'), srid };
  if (wkb.length !== WKB_POINT_SIZE) throw new ConnectException(`Failed to parse and read a value of type POINT on ${column}`);
  // Point.parseWKBPoint: the byte order from the first byte, then type 1 and x, y
  const little = wkb[0] !== 0;
  const type = little ? wkb.readInt32LE(1) : wkb.readInt32BE(1);
  if (type !== 1) throw new ConnectException(`Invalid WKB for 2D Point (wrong type ${type})`);
  const x = little ? wkb.readDoubleLE(5) : wkb.readDoubleBE(5);
  const y = little ? wkb.readDoubleLE(13) : wkb.readDoubleBE(13);
  return { x, y, wkb: wkb.toString('base64'), srid };
}
