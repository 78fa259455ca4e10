/**
 * WKT and WKB as MySQL 8.0 reads and writes them. The bytes are MariaDB 10.11.19's (HEX of
 * ST_GeomFromText, which stores MySQL's format); the texts are MariaDB's where MySQL 8.0 agrees
 * and the MySQL 8.0 reference manual's where it does not (MULTIPOINT's points in parentheses).
 */
import { describe, expect, it } from 'vitest';
import { BadGeometry, fromMySqlBytes, toMySqlBytes } from './spatial-geometry.js';
import { doubleText, parseWkt, toWkt } from './spatial-wkt.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();
const stored = (wkt: string, srid = 0) => hex(toMySqlBytes({ srid, geometry: parseWkt(wkt) }));

describe('WKT', () => {
  it('reads the tutorial geometries with blanks anywhere and writes them without blanks after commas', () => {
    // MariaDB 10.11.19 and MySQL 8.0: POINT(1 1), LINESTRING(2 1,6 6), POLYGON((0 5,2 5,2 7,0 7,0 5))
    expect(toWkt(parseWkt('POINT(1 1)'))).toBe('POINT(1 1)');
    expect(toWkt(parseWkt('LINESTRING(2 1, 6 6)'))).toBe('LINESTRING(2 1,6 6)');
    expect(toWkt(parseWkt('POLYGON((0 5, 2 5, 2 7, 0 7, 0 5))'))).toBe('POLYGON((0 5,2 5,2 7,0 7,0 5))');
    expect(toWkt(parseWkt(' point ( 1   1 ) '))).toBe('POINT(1 1)');
  });

  it('round-trips every type; MULTIPOINT is written with each point in parentheses, as MySQL 8.0 writes it', () => {
    for (const wkt of [
      'MULTILINESTRING((0 0,1 1),(2 2,3 3))',
      'MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((5 5,6 5,6 6,5 5)))',
      'POLYGON((0 0,10 0,10 10,0 0),(1 1,2 1,2 2,1 1))',
      'GEOMETRYCOLLECTION(POINT(1 1),LINESTRING(0 0,1 1))',
      'GEOMETRYCOLLECTION EMPTY',
      'MULTIPOINT((1 1),(2 2))',
    ]) {
      expect(toWkt(parseWkt(wkt))).toBe(wkt);
    }
    expect(toWkt(parseWkt('MULTIPOINT(1 1, 2 2)'))).toBe('MULTIPOINT((1 1),(2 2))');
    expect(toWkt(parseWkt('GEOMETRYCOLLECTION()'))).toBe('GEOMETRYCOLLECTION EMPTY');
    expect(toWkt(parseWkt('GEOMCOLLECTION(POINT(1e1 +2))'))).toBe('GEOMETRYCOLLECTION(POINT(10 2))');
  });

  it('refuses text that is no well-formed geometry', () => {
    for (const bad of ['', 'POINT(1)', 'POINT(1 1) x', 'POINT(.5 1)', 'LINESTRING(0 0)', 'POLYGON((0 0,1 1,1 0))', 'POLYGON((0 0,1 0,1 1,0 1))', 'CIRCLE(1 1)', 'POINT EMPTY', 'MULTIPOINT()']) {
      expect(() => parseWkt(bad), bad).toThrow(BadGeometry);
    }
  });

  it('prints coordinates as MySQL prints a double (MariaDB 10.11.19: SELECT 1e14, 1e15, 1e-15, 1e-16, 0.1e0 + 0.2e0)', () => {
    expect([1e14, 1e15, 1e-15, 1e-16, 0.1 + 0.2, -2e20, 1.5, -0, 1.23456e-18, 0.000025].map(doubleText)).toEqual([
      '100000000000000', '1e15', '0.000000000000001', '1e-16', '0.30000000000000004', '-2e20', '1.5', '0', '1.23456e-18', '0.000025',
    ]);
  });
});

describe("MySQL's internal format", () => {
  it('is the SRID as 4 bytes little-endian, then little-endian WKB (MariaDB 10.11.19, HEX(ST_GeomFromText(…)))', () => {
    expect(stored('POINT(1 1)')).toBe('000000000101000000000000000000F03F000000000000F03F');
    expect(stored('POINT(1 1)', 4326)).toBe('E61000000101000000000000000000F03F000000000000F03F');
    expect(stored('POLYGON((0 5, 2 5, 2 7, 0 7, 0 5))')).toBe(
      '0000000001030000000100000005000000000000000000000000000000000014400000000000000040000000000000144000000000000000400000000000001C4000000000000000000000000000001C4000000000000000000000000000001440',
    );
    expect(stored('MULTIPOINT(1 1, 2 2)')).toBe('000000000104000000020000000101000000000000000000F03F000000000000F03F010100000000000000000000400000000000000040');
    expect(stored('GEOMETRYCOLLECTION EMPTY')).toBe('00000000010700000000000000');
  });

  it('reads back what it wrote, and refuses bytes that are no geometry', () => {
    const bytes = toMySqlBytes({ srid: 3857, geometry: parseWkt('GEOMETRYCOLLECTION(POINT(1 2),MULTILINESTRING((0 0,1 1)))') });
    const back = fromMySqlBytes(bytes);
    expect(back.srid).toBe(3857);
    expect(toWkt(back.geometry)).toBe('GEOMETRYCOLLECTION(POINT(1 2),MULTILINESTRING((0 0,1 1)))');
    expect(() => fromMySqlBytes(new Uint8Array(Buffer.from('abc')))).toThrow(BadGeometry);
    expect(() => fromMySqlBytes(bytes.subarray(0, bytes.length - 1))).toThrow(BadGeometry);
    expect(() => fromMySqlBytes(new Uint8Array([...bytes, 0]))).toThrow(BadGeometry);
  });
});
