/**
 * MySQL 8.0's spatial functions that make and read geometries, as SQL functions of the embedded
 * source's connections: ST_GeomFromText / ST_GeometryFromText and the typed …FromText, ST_GeomFromWKB,
 * POINT(x, y), ST_AsText / ST_AsWKT, ST_AsBinary / ST_AsWKB, ST_SRID, ST_X, ST_Y, ST_GeometryType.
 * A geometry is a value in MySQL's internal format (spatial-geometry.ts); WKT and WKB are read
 * and written in the SRS's axis order (spatial-srs.ts). Any NULL argument gives NULL. Text or
 * bytes that are no geometry are ER_GIS_INVALID_DATA (3037, SQLSTATE 22023), naming the function
 * in lower case as MySQL 8.0's func_name() does.
 */
import type { Database, SqlValue } from 'sql.js';
import { StoreError } from './column-values.js';
import { withArities } from './mysql-functions.js';
import { BadGeometry, fromMySqlBytes, fromWkb, toMySqlBytes, toWkb, type Geometry, type GeometryType, type SpatialValue } from './spatial-geometry.js';
import { toSrsOrder, toStoredOrder } from './spatial-srs.js';
import { parseWkt, toWkt } from './spatial-wkt.js';

type Fn = (...args: SqlValue[]) => SqlValue;

const invalidData = (fn: string) => new StoreError(3037, `Invalid GIS data provided to function ${fn}.`);
const isNull = (args: SqlValue[]) => args.some((a) => a === null || a === undefined);
const bytesOf = (v: SqlValue): Uint8Array => (v instanceof Uint8Array ? v : new Uint8Array(Buffer.from(String(v), 'latin1')));

/** The geometry an argument holds, or 3037 naming `fn`. */
export function geometryArg(v: SqlValue, fn: string): SpatialValue {
  try {
    return fromMySqlBytes(bytesOf(v));
  } catch (err) {
    if (err instanceof BadGeometry) throw invalidData(fn);
    throw err;
  }
}

/** An SRID argument: an unsigned 32-bit number. */
function sridArg(v: SqlValue | undefined, fn: string): number {
  if (v === undefined) return 0;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw invalidData(fn);
  return n;
}

/** The axis order an options argument asks for (`axis-order=lat-long|long-lat|srid-defined`): whether to take the stored order as it is. */
function longLatOption(v: SqlValue | undefined): boolean {
  if (v === undefined) return false;
  const m = /axis-order\s*=\s*([\w-]+)/i.exec(String(v));
  return m?.[1]?.toLowerCase() === 'long-lat';
}

/** A geometry read in a function (WKT or WKB with an SRID and options) as MySQL stores it. */
function made(g: Geometry, args: SqlValue[], fn: string, want?: GeometryType): Uint8Array {
  if (want && g.type !== want) throw invalidData(fn);
  const srid = sridArg(args[1], fn);
  const stored = longLatOption(args[2]) ? g : toStoredOrder(g, srid, fn);
  return toMySqlBytes({ srid, geometry: stored });
}

function fromText(fn: string, want?: GeometryType): Fn {
  return (...args) => {
    if (isNull(args)) return null;
    let g: Geometry;
    try {
      g = parseWkt(String(args[0] instanceof Uint8Array ? Buffer.from(args[0]).toString('utf8') : args[0]));
    } catch (err) {
      if (err instanceof BadGeometry) throw invalidData(fn);
      throw err;
    }
    return made(g, args, fn, want);
  };
}

function fromBinary(fn: string): Fn {
  return (...args) => {
    if (isNull(args)) return null;
    let g: Geometry;
    try {
      g = fromWkb(bytesOf(args[0]!));
    } catch (err) {
      if (err instanceof BadGeometry) throw invalidData(fn);
      throw err;
    }
    return made(g, args, fn);
  };
}

/** The geometry of an argument in the order an output function writes it. */
function shown(args: SqlValue[], fn: string): Geometry {
  const v = geometryArg(args[0]!, fn);
  return longLatOption(args[1]) ? v.geometry : toSrsOrder(v.geometry, v.srid);
}

function coordinate(fn: string, axis: 0 | 1): Fn {
  return (...args) => {
    if (isNull(args)) return null;
    const g = shown(args, fn);
    if (g.type !== 'point') throw invalidData(fn);
    return g.coord[axis];
  };
}

/** ST_GeometryType: the type's name upper-cased, GEOMCOLLECTION for a collection (MySQL 8.0's name for the type). */
const TYPE_NAMES: Record<GeometryType, string> = { point: 'POINT', linestring: 'LINESTRING', polygon: 'POLYGON', multipoint: 'MULTIPOINT', multilinestring: 'MULTILINESTRING', multipolygon: 'MULTIPOLYGON', geometrycollection: 'GEOMCOLLECTION' };

const FUNCTIONS: Record<string, Fn[]> = {
  st_geomfromtext: withArities([1, 2, 3], fromText('st_geomfromtext')),
  st_geometryfromtext: withArities([1, 2, 3], fromText('st_geometryfromtext')),
  st_pointfromtext: withArities([1, 2, 3], fromText('st_pointfromtext', 'point')),
  st_linefromtext: withArities([1, 2, 3], fromText('st_linefromtext', 'linestring')),
  st_linestringfromtext: withArities([1, 2, 3], fromText('st_linestringfromtext', 'linestring')),
  st_polyfromtext: withArities([1, 2, 3], fromText('st_polyfromtext', 'polygon')),
  st_polygonfromtext: withArities([1, 2, 3], fromText('st_polygonfromtext', 'polygon')),
  st_geomfromwkb: withArities([1, 2, 3], fromBinary('st_geomfromwkb')),
  st_geometryfromwkb: withArities([1, 2, 3], fromBinary('st_geometryfromwkb')),
  point: [(x, y) => (isNull([x, y]) ? null : toMySqlBytes({ srid: 0, geometry: { type: 'point', coord: [Number(x), Number(y)] } }))],
  st_astext: withArities([1, 2], (...a) => (isNull(a) ? null : toWkt(shown(a, 'st_astext')))),
  st_aswkt: withArities([1, 2], (...a) => (isNull(a) ? null : toWkt(shown(a, 'st_aswkt')))),
  st_asbinary: withArities([1, 2], (...a) => (isNull(a) ? null : toWkb(shown(a, 'st_asbinary')))),
  st_aswkb: withArities([1, 2], (...a) => (isNull(a) ? null : toWkb(shown(a, 'st_aswkb')))),
  st_srid: withArities([1, 2], (...a) => {
    if (isNull(a)) return null;
    const v = geometryArg(a[0]!, 'st_srid');
    // ST_SRID(g, srid) (8.0.5): the same geometry, stored coordinates kept, with another SRID
    return a.length === 1 ? v.srid : toMySqlBytes({ srid: sridArg(a[1], 'st_srid'), geometry: v.geometry });
  }),
  st_x: withArities([1], coordinate('st_x', 0)),
  st_y: withArities([1], coordinate('st_y', 1)),
  st_geometrytype: [(g) => (isNull([g]) ? null : TYPE_NAMES[geometryArg(g, 'st_geometrytype').geometry.type])],
};

/** Registers the spatial functions on a connection of the embedded source. */
export function registerSpatialFunctions(db: Database): void {
  for (const [name, fns] of Object.entries(FUNCTIONS)) for (const fn of fns) db.create_function(name, fn);
}
