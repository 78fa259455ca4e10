/**
 * MySQL 8.0's spatial column types and what such a column stores (Field_geom::store): a value in
 * MySQL's internal format (spatial-geometry.ts) whose geometry is of the column's type, and, for a
 * column declared with `SRID n`, of that SRID. Anything else — text, a number, bytes that are no
 * geometry, another geometry type — is ER_CANT_CREATE_GEOMETRY_OBJECT; another SRID is
 * ER_WRONG_SRID_FOR_COLUMN.
 */
import type { SqlValue } from 'sql.js';
import type { ColumnDef } from './mysql-ddl.js';
import { BadGeometry, fromMySqlBytes, type GeometryType } from './spatial-geometry.js';
import { StoreError } from './column-values.js';

/** The type keywords (sql/lex.h); GEOMCOLLECTION is GEOMETRYCOLLECTION's synonym since 8.0.11. */
export const SPATIAL_TYPES = new Set(['geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection', 'geomcollection']);

export const isSpatial = (baseType: string): boolean => SPATIAL_TYPES.has(baseType.toLowerCase());

/** What a spatial column takes: any geometry, or one type; and its SRID when it has one. */
export interface SpatialKind {
  kind: 'geometry';
  type: GeometryType | 'geometry';
  srid?: number;
}

export function spatialKind(c: ColumnDef): SpatialKind {
  const base = c.baseType.toLowerCase();
  const type = base === 'geomcollection' ? 'geometrycollection' : (base as GeometryType | 'geometry');
  return c.srid === undefined ? { kind: 'geometry', type } : { kind: 'geometry', type, srid: c.srid };
}

/** A GEOMETRYCOLLECTION column also takes the MULTI… types (Field_geom::store_internal). */
const COLLECTIONS = new Set<GeometryType>(['geometrycollection', 'multipoint', 'multilinestring', 'multipolygon']);

/** ER_CANT_CREATE_GEOMETRY_OBJECT (errmsg-utf8.txt; SQLSTATE 22003). */
export const cantCreateGeometry = () => new StoreError(1416, 'Cannot get geometry object from data you send to the GEOMETRY field');

/** The bytes `c` stores for `v`, or the StoreError MySQL gives. */
export function storeGeometry(c: ColumnDef, k: SpatialKind, v: SqlValue): SqlValue {
  if (v === null) return null;
  // text is bytes to MySQL too: a string that holds a geometry's bytes would be one
  const bytes = v instanceof Uint8Array ? v : typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'latin1')) : undefined;
  if (!bytes) throw cantCreateGeometry();
  let value;
  try {
    value = fromMySqlBytes(bytes);
  } catch (err) {
    if (err instanceof BadGeometry) throw cantCreateGeometry();
    throw err;
  }
  const t = value.geometry.type;
  if (k.type !== 'geometry' && t !== k.type && !(k.type === 'geometrycollection' && COLLECTIONS.has(t))) throw cantCreateGeometry();
  if (k.srid !== undefined && value.srid !== k.srid) {
    throw new StoreError(3643, `The SRID of the geometry does not match the SRID of the column '${c.name}'. The SRID of the geometry is ${value.srid}, but the SRID of the column is ${k.srid}. Consider changing the SRID of the geometry or the SRID property of the column.`);
  }
  return bytes;
}
