/**
 * Well-known text (OGC 06-103r4, section 7) as MySQL 8.0 reads and writes it: keywords in any
 * case with blanks anywhere between tokens; MULTIPOINT's points with or without their own
 * parentheses; GEOMETRYCOLLECTION EMPTY (or `()`) the only empty geometry; nothing may follow the
 * geometry. Written upper-case without blanks after commas, MULTIPOINT's points each in
 * parentheses (reference manual, "Well-Known Text (WKT) Format Conversion Functions":
 * `LINESTRING(1 1,2 2,3 3)`, `MULTIPOINT((1 1),(2 2),(3 3))`), numbers as MySQL prints a double.
 * The text is in the SRS's axis order; spatial-srs.ts turns it into the stored order.
 */
import { BadGeometry, checkShape, type Coord, type Geometry, type GeometryType } from './spatial-geometry.js';

const KEYWORDS = new Set<string>(['point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection', 'geomcollection']);

class Tokens {
  pos = 0;
  constructor(readonly s: string) {}
  private skip(): void {
    while (this.pos < this.s.length && /\s/.test(this.s[this.pos]!)) this.pos++;
  }
  eof(): boolean {
    this.skip();
    return this.pos >= this.s.length;
  }
  word(): string {
    this.skip();
    const m = /^[A-Za-z_]+/.exec(this.s.slice(this.pos));
    if (!m) throw new BadGeometry('keyword expected');
    this.pos += m[0].length;
    return m[0].toLowerCase();
  }
  /** Whether the next token is `ch`, taking it if so. */
  take(ch: string): boolean {
    this.skip();
    if (this.s[this.pos] !== ch) return false;
    this.pos++;
    return true;
  }
  expect(ch: string): void {
    if (!this.take(ch)) throw new BadGeometry(`'${ch}' expected`);
  }
  peek(): string {
    this.skip();
    return this.s[this.pos] ?? '';
  }
  /** Gis_read_stream::get_next_number: a sign or a digit first, then what strtod reads. */
  number(): number {
    this.skip();
    const m = /^[+-]?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?/.exec(this.s.slice(this.pos));
    if (!m) throw new BadGeometry('number expected');
    this.pos += m[0].length;
    const n = Number(m[0]);
    if (!Number.isFinite(n)) throw new BadGeometry('number out of range');
    return n;
  }
}

/** The geometry a WKT text describes, or BadGeometry. */
export function parseWkt(text: string): Geometry {
  const t = new Tokens(text);
  const g = geometry(t);
  if (!t.eof()) throw new BadGeometry('text after the geometry');
  checkShape(g);
  return g;
}

function geometry(t: Tokens): Geometry {
  const word = t.word();
  if (!KEYWORDS.has(word)) throw new BadGeometry(`unknown geometry ${word}`);
  const type = (word === 'geomcollection' ? 'geometrycollection' : word) as GeometryType;
  if (type === 'geometrycollection') {
    if (!t.take('(')) {
      if (t.word() !== 'empty') throw new BadGeometry('EMPTY expected');
      return { type, geometries: [] };
    }
    const geometries: Geometry[] = [];
    if (!t.take(')')) {
      do geometries.push(geometry(t));
      while (t.take(','));
      t.expect(')');
    }
    return { type, geometries };
  }
  t.expect('(');
  let g: Geometry;
  switch (type) {
    case 'point':
      g = { type, coord: coord(t) };
      break;
    case 'linestring':
      g = { type, points: coords(t) };
      break;
    case 'polygon':
      g = { type, rings: listOf(t, () => inParens(t, () => coords(t))) };
      break;
    case 'multipoint':
      g = { type, points: listOf(t, () => (t.peek() === '(' ? inParens(t, () => coord(t)) : coord(t))) };
      break;
    case 'multilinestring':
      g = { type, lines: listOf(t, () => inParens(t, () => coords(t))) };
      break;
    case 'multipolygon':
      g = { type, polygons: listOf(t, () => inParens(t, () => listOf(t, () => inParens(t, () => coords(t))))) };
      break;
  }
  t.expect(')');
  return g;
}

const coord = (t: Tokens): Coord => [t.number(), t.number()];
const coords = (t: Tokens): Coord[] => listOf(t, () => coord(t));

function listOf<T>(t: Tokens, item: () => T): T[] {
  const out = [item()];
  while (t.take(',')) out.push(item());
  return out;
}

function inParens<T>(t: Tokens, inner: () => T): T {
  t.expect('(');
  const v = inner();
  t.expect(')');
  return v;
}

// ------------------------------------------------------------------------------------ writing

/**
 * A double as MySQL prints it (my_gcvt, as String::qs_append(double) uses it): the shortest digits
 * that read back as the same double, in positional notation for decimal exponents -15 … 14 and as
 * `1.5e15`, `1e-16` outside them. Checked against MariaDB 10.11, which prints doubles the same way
 * (`SELECT 1e14, 1e15, 1e-15, 1e-16` gives 100000000000000, 1e15, 0.000000000000001, 1e-16).
 */
export function doubleText(n: number): string {
  if (n === 0) return '0';
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e >= 15 || e < -15) return `${mantissa}e${e}`;
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  let out: string;
  if (e < 0) out = `0.${'0'.repeat(-e - 1)}${digits}`;
  else if (digits.length <= e + 1) out = digits.padEnd(e + 1, '0');
  else out = `${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
  return negative ? `-${out}` : out;
}

const point = (c: Coord) => `${doubleText(c[0])} ${doubleText(c[1])}`;
const points = (cs: Coord[]) => cs.map(point).join(',');
const rings = (rs: Coord[][]) => rs.map((r) => `(${points(r)})`).join(',');

/** MySQL 8.0's WKT of a geometry (ST_AsText). */
export function toWkt(g: Geometry): string {
  switch (g.type) {
    case 'point':
      return `POINT(${point(g.coord)})`;
    case 'linestring':
      return `LINESTRING(${points(g.points)})`;
    case 'polygon':
      return `POLYGON(${rings(g.rings)})`;
    case 'multipoint':
      return `MULTIPOINT(${g.points.map((p) => `(${point(p)})`).join(',')})`;
    case 'multilinestring':
      return `MULTILINESTRING(${rings(g.lines)})`;
    case 'multipolygon':
      return `MULTIPOLYGON(${g.polygons.map((p) => `(${rings(p)})`).join(',')})`;
    case 'geometrycollection':
      return g.geometries.length ? `GEOMETRYCOLLECTION(${g.geometries.map(toWkt).join(',')})` : 'GEOMETRYCOLLECTION EMPTY';
  }
}
