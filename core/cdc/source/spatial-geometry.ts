/**
 * A geometry as MySQL 8.0 keeps it: the OGC simple-features types, and their bytes. MySQL's
 * internal format, which a GEOMETRY column stores and the binlog carries, is the SRID as 4 bytes
 * little-endian followed by the geometry's WKB (OGC 06-103r4, "Well-known Binary
 * Representation"), written little-endian (reference manual, "Internal Geometry Storage Format").
 * Checked byte for byte against MariaDB 10.11, which stores the same format.
 */

/** x, y as stored: for a geographic SRS, longitude then latitude. */
export type Coord = [number, number];

export type Geometry =
  | { type: 'point'; coord: Coord }
  | { type: 'linestring'; points: Coord[] }
  | { type: 'polygon'; rings: Coord[][] }
  | { type: 'multipoint'; points: Coord[] }
  | { type: 'multilinestring'; lines: Coord[][] }
  | { type: 'multipolygon'; polygons: Coord[][][] }
  | { type: 'geometrycollection'; geometries: Geometry[] };

export type GeometryType = Geometry['type'];

/** A geometry with its spatial reference system (0: the Cartesian plane without units). */
export interface SpatialValue {
  srid: number;
  geometry: Geometry;
}

/** The WKB type codes (OGC 06-103r4, table 7). */
export const WKB_TYPES: Record<GeometryType, number> = { point: 1, linestring: 2, polygon: 3, multipoint: 4, multilinestring: 5, multipolygon: 6, geometrycollection: 7 };
const TYPE_OF_CODE = new Map(Object.entries(WKB_TYPES).map(([t, n]) => [n, t as GeometryType]));

/** Raised for bytes that are no geometry; the caller says which MySQL error that is. */
export class BadGeometry extends Error {}

// ------------------------------------------------------------------------------------ writing

class Writer {
  private parts: Buffer[] = [];
  u8(n: number): void {
    this.parts.push(Buffer.from([n]));
  }
  u32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.parts.push(b);
  }
  f64(n: number): void {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(n);
    this.parts.push(b);
  }
  bytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.parts));
  }
}

function writeGeometry(w: Writer, g: Geometry): void {
  w.u8(1); // little-endian (NDR)
  w.u32(WKB_TYPES[g.type]);
  const coord = (c: Coord) => {
    w.f64(c[0]);
    w.f64(c[1]);
  };
  const list = (cs: Coord[]) => {
    w.u32(cs.length);
    cs.forEach(coord);
  };
  const polygon = (rings: Coord[][]) => {
    w.u32(rings.length);
    rings.forEach(list);
  };
  switch (g.type) {
    case 'point':
      return coord(g.coord);
    case 'linestring':
      return list(g.points);
    case 'polygon':
      return polygon(g.rings);
    case 'multipoint':
      w.u32(g.points.length);
      for (const p of g.points) writeGeometry(w, { type: 'point', coord: p });
      return;
    case 'multilinestring':
      w.u32(g.lines.length);
      for (const l of g.lines) writeGeometry(w, { type: 'linestring', points: l });
      return;
    case 'multipolygon':
      w.u32(g.polygons.length);
      for (const p of g.polygons) writeGeometry(w, { type: 'polygon', rings: p });
      return;
    case 'geometrycollection':
      w.u32(g.geometries.length);
      for (const x of g.geometries) writeGeometry(w, x);
  }
}

/** The geometry's WKB, little-endian. */
export function toWkb(g: Geometry): Uint8Array {
  const w = new Writer();
  writeGeometry(w, g);
  return w.bytes();
}

/** MySQL's internal format: SRID (uint32 little-endian) and WKB. */
export function toMySqlBytes(v: SpatialValue): Uint8Array {
  const wkb = toWkb(v.geometry);
  const out = new Uint8Array(4 + wkb.length);
  new DataView(out.buffer).setUint32(0, v.srid, true);
  out.set(wkb, 4);
  return out;
}

// ------------------------------------------------------------------------------------ reading

class Reader {
  pos = 0;
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  need(n: number): void {
    if (this.pos + n > this.bytes.length) throw new BadGeometry('truncated WKB');
  }
  u8(): number {
    this.need(1);
    return this.view.getUint8(this.pos++);
  }
  u32(little: boolean): number {
    this.need(4);
    const n = this.view.getUint32(this.pos, little);
    this.pos += 4;
    return n;
  }
  f64(little: boolean): number {
    this.need(8);
    const n = this.view.getFloat64(this.pos, little);
    this.pos += 8;
    if (!Number.isFinite(n)) throw new BadGeometry('coordinate is not a number');
    return n;
  }
  /** A count of items at least `min` bytes each, bounded by what is left. */
  count(little: boolean, min: number): number {
    const n = this.u32(little);
    if (n * min > this.bytes.length - this.pos) throw new BadGeometry('count past the end');
    return n;
  }
}

function readGeometry(r: Reader, want?: GeometryType): Geometry {
  const order = r.u8();
  if (order > 1) throw new BadGeometry('bad byte order');
  const little = order === 1;
  const type = TYPE_OF_CODE.get(r.u32(little));
  if (!type || (want && type !== want)) throw new BadGeometry('bad WKB type');
  const coord = (): Coord => [r.f64(little), r.f64(little)];
  const list = (): Coord[] => Array.from({ length: r.count(little, 16) }, coord);
  const rings = (): Coord[][] => Array.from({ length: r.count(little, 4) }, list);
  let g: Geometry;
  switch (type) {
    case 'point':
      g = { type, coord: coord() };
      break;
    case 'linestring':
      g = { type, points: list() };
      break;
    case 'polygon':
      g = { type, rings: rings() };
      break;
    case 'multipoint':
      g = { type, points: Array.from({ length: r.count(little, 21) }, () => (readGeometry(r, 'point') as { coord: Coord }).coord) };
      break;
    case 'multilinestring':
      g = { type, lines: Array.from({ length: r.count(little, 9) }, () => (readGeometry(r, 'linestring') as { points: Coord[] }).points) };
      break;
    case 'multipolygon':
      g = { type, polygons: Array.from({ length: r.count(little, 9) }, () => (readGeometry(r, 'polygon') as { rings: Coord[][] }).rings) };
      break;
    case 'geometrycollection':
      g = { type, geometries: Array.from({ length: r.count(little, 9) }, () => readGeometry(r)) };
      break;
  }
  checkShape(g);
  return g;
}

/**
 * MySQL 8.0's rules for a well-formed geometry (reference manual, "Geometry Well-Formedness and
 * Validity"): a linestring has two points or more, a polygon's rings are closed and have four
 * points or more, and only a geometry collection may be empty.
 */
export function checkShape(g: Geometry): void {
  const ring = (cs: Coord[]) => {
    if (cs.length < 4 || cs[0]![0] !== cs.at(-1)![0] || cs[0]![1] !== cs.at(-1)![1]) throw new BadGeometry('ring not closed');
  };
  const line = (cs: Coord[]) => {
    if (cs.length < 2) throw new BadGeometry('linestring with fewer than 2 points');
  };
  const polygon = (rs: Coord[][]) => {
    if (rs.length === 0) throw new BadGeometry('empty polygon');
    rs.forEach(ring);
  };
  switch (g.type) {
    case 'linestring':
      return line(g.points);
    case 'polygon':
      return polygon(g.rings);
    case 'multipoint':
      if (!g.points.length) throw new BadGeometry('empty multipoint');
      return;
    case 'multilinestring':
      if (!g.lines.length) throw new BadGeometry('empty multilinestring');
      return g.lines.forEach(line);
    case 'multipolygon':
      if (!g.polygons.length) throw new BadGeometry('empty multipolygon');
      return g.polygons.forEach(polygon);
    default:
      return;
  }
}

/** A geometry from WKB (either byte order); nothing may follow it. */
export function fromWkb(bytes: Uint8Array): Geometry {
  const r = new Reader(bytes);
  const g = readGeometry(r);
  if (r.pos !== bytes.length) throw new BadGeometry('bytes after the geometry');
  return g;
}

/** A value in MySQL's internal format, or BadGeometry. */
export function fromMySqlBytes(bytes: Uint8Array): SpatialValue {
  if (bytes.length < 4 + 9) throw new BadGeometry('too short');
  const srid = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  return { srid, geometry: fromWkb(bytes.subarray(4)) };
}
