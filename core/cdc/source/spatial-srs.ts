/**
 * Spatial reference systems as the embedded source knows them: SRID 0 (the Cartesian plane) and
 * every other SRID are Cartesian, except 4326 (WGS 84), which is geographic. MySQL 8.0 stores a
 * geographic geometry longitude first, but reads and writes WKT, WKB and ST_X/ST_Y in the SRS's
 * axis order, which for EPSG 4326 is latitude first (reference manual, "Spatial Reference System
 * Support" and the axis-order option of ST_GeomFromText), so the text `POINT(10 20)` with SRID
 * 4326 is stored as x = 20, y = 10. Latitudes must lie in [-90, 90] and longitudes in
 * (-180, 180] (ER_LATITUDE_OUT_OF_RANGE, ER_LONGITUDE_OUT_OF_RANGE).
 */
import type { Coord, Geometry } from './spatial-geometry.js';
import { StoreError } from './column-values.js';

/** The geographic SRSs: EPSG 4326 alone (MySQL knows some 480; they are not listed here). */
const GEOGRAPHIC = new Set([4326]);

export const isGeographic = (srid: number): boolean => GEOGRAPHIC.has(srid);

function mapCoords(g: Geometry, f: (c: Coord) => Coord): Geometry {
  const list = (cs: Coord[]) => cs.map(f);
  switch (g.type) {
    case 'point':
      return { type: g.type, coord: f(g.coord) };
    case 'linestring':
    case 'multipoint':
      return { type: g.type, points: list(g.points) };
    case 'polygon':
      return { type: g.type, rings: g.rings.map(list) };
    case 'multilinestring':
      return { type: g.type, lines: g.lines.map(list) };
    case 'multipolygon':
      return { type: g.type, polygons: g.polygons.map((p) => p.map(list)) };
    case 'geometrycollection':
      return { type: g.type, geometries: g.geometries.map((x) => mapCoords(x, f)) };
  }
}

const swap = (c: Coord): Coord => [c[1], c[0]];

/** A geometry read in the SRS's axis order (WKT, WKB given to a function) as MySQL stores it; `fn` names the function for the range errors. */
export function toStoredOrder(g: Geometry, srid: number, fn: string): Geometry {
  if (!isGeographic(srid)) return g;
  return mapCoords(g, ([lat, lon]) => {
    // sql/gis: "%f" prints six decimals
    if (lat < -90 || lat > 90) throw new StoreError(3617, `Latitude ${lat.toFixed(6)} is out of range in function ${fn}. It must be within [-90.000000, 90.000000].`);
    if (lon <= -180 || lon > 180) throw new StoreError(3616, `Longitude ${lon.toFixed(6)} is out of range in function ${fn}. It must be within (-180.000000, 180.000000].`);
    return [lon, lat];
  });
}

/** A stored geometry in the SRS's axis order, as ST_AsText, ST_AsBinary, ST_X and ST_Y give it. */
export function toSrsOrder(g: Geometry, srid: number): Geometry {
  return isGeographic(srid) ? mapCoords(g, swap) : g;
}
