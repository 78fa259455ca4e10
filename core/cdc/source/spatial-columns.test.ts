/**
 * Spatial columns of the embedded source end to end: the Debezium tutorial's geom table
 * (inventory.sql), the spatial functions, MySQL 8.0's errors, SHOW CREATE TABLE and the change
 * log. Where MariaDB 10.11.19 was asked, the expectation says so; error texts are MySQL 8.0's
 * errmsg-utf8.txt.
 */
import { describe, expect, it } from 'vitest';
import { MySqlError } from './mysql-error.js';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({ database: 'inventory', setup: 'CREATE DATABASE inventory' });
const { run, rows } = fresh;

/** errno and message of the error a statement fails with. */
function failure(sql: string): [number, string] {
  try {
    run(sql);
  } catch (err) {
    expect(err).toBeInstanceOf(MySqlError);
    return [(err as MySqlError).errno, (err as MySqlError).message];
  }
  throw new Error(`expected an error from ${sql}`);
}

const TUTORIAL = `CREATE TABLE geom (id INTEGER NOT NULL AUTO_INCREMENT PRIMARY KEY, g GEOMETRY NOT NULL, h GEOMETRY);
INSERT INTO geom VALUES(default, ST_GeomFromText('POINT(1 1)'), NULL),
      (default, ST_GeomFromText('LINESTRING(2 1, 6 6)'), NULL),
      (default, ST_GeomFromText('POLYGON((0 5, 2 5, 2 7, 0 7, 0 5))'), NULL);`;

const CANT_CREATE = [1416, 'Cannot get geometry object from data you send to the GEOMETRY field'];

describe('the Debezium tutorial geom table', () => {
  it('is created and filled, and reads back as MySQL 8.0 writes its WKT', () => {
    run(TUTORIAL);
    expect(rows('SELECT id, ST_AsText(g), h FROM geom ORDER BY id')).toEqual([
      [1, 'POINT(1 1)', null],
      [2, 'LINESTRING(2 1,6 6)', null],
      [3, 'POLYGON((0 5,2 5,2 7,0 7,0 5))', null],
    ]);
    // MariaDB 10.11.19: HEX(g) of the first row
    expect(rows('SELECT HEX(g), ST_SRID(g), ST_GeometryType(g) FROM geom WHERE id = 1')).toEqual([['000000000101000000000000000000F03F000000000000F03F', 0, 'POINT']]);
  });

  it('SHOW CREATE TABLE and DESCRIBE print the types as MySQL 8.0 does (MariaDB 10.11.19 prints the same columns)', () => {
    run(TUTORIAL);
    expect(String(rows('SHOW CREATE TABLE geom')[0]![1])).toBe(
      'CREATE TABLE `geom` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `g` geometry NOT NULL,\n  `h` geometry DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB AUTO_INCREMENT=4 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci',
    );
    expect(rows('DESCRIBE geom').map((r) => r.slice(0, 3))).toEqual([
      ['id', 'int', 'NO'],
      ['g', 'geometry', 'NO'],
      ['h', 'geometry', 'YES'],
    ]);
  });

  it('the change log holds the rows as MySQL binlogs them: the internal format (hex in the row image)', () => {
    run(TUTORIAL);
    const inserts = fresh.src.readTransactions({ file: '', pos: 0 }, 100).flatMap((t) => t.events);
    expect(inserts.map((e) => e.after!.g)).toEqual([
      '000000000101000000000000000000F03F000000000000F03F',
      '000000000102000000020000000000000000000040000000000000F03F00000000000018400000000000001840',
      '0000000001030000000100000005000000000000000000000000000000000014400000000000000040000000000000144000000000000000400000000000001C4000000000000000000000000000001C4000000000000000000000000000001440',
    ]);
  });

  // a restart from the change log alone would write the images' hex text into the BLOB columns
  // (EmbeddedSource.replay binds them as logged), for spatial and binary columns alike
  it('survives a restart', async () => {
    run(TUTORIAL);
    await fresh.restart();
    expect(rows('SELECT ST_AsText(g) FROM geom ORDER BY id')).toEqual([['POINT(1 1)'], ['LINESTRING(2 1,6 6)'], ['POLYGON((0 5,2 5,2 7,0 7,0 5))']]);
  });
});

describe('the spatial types and the SRID attribute', () => {
  it('every spatial type is a column type; SRID is printed in its versioned comment after NOT NULL', () => {
    run('CREATE TABLE s (p POINT NOT NULL SRID 4326, l LINESTRING, a POLYGON, mp MULTIPOINT, ml MULTILINESTRING, ma MULTIPOLYGON, gc GEOMETRYCOLLECTION, gc2 GEOMCOLLECTION SRID 0)');
    expect(String(rows('SHOW CREATE TABLE s')[0]![1])).toBe(
      'CREATE TABLE `s` (\n' +
        '  `p` point NOT NULL /*!80003 SRID 4326 */,\n' +
        '  `l` linestring DEFAULT NULL,\n' +
        '  `a` polygon DEFAULT NULL,\n' +
        '  `mp` multipoint DEFAULT NULL,\n' +
        '  `ml` multilinestring DEFAULT NULL,\n' +
        '  `ma` multipolygon DEFAULT NULL,\n' +
        '  `gc` geomcollection DEFAULT NULL,\n' +
        '  `gc2` geomcollection /*!80003 SRID 0 */ DEFAULT NULL\n' +
        ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci',
    );
  });

  it('SHOW CREATE TABLE reads back as the same table (the versioned comment is run)', () => {
    run('CREATE TABLE s (id INT PRIMARY KEY, p POINT NOT NULL SRID 4326)');
    const shown = String(rows('SHOW CREATE TABLE s')[0]![1]);
    run('DROP TABLE s');
    run(shown.replace('/*!80003 SRID 4326 */', 'SRID 4326'));
    expect(failure("INSERT INTO s VALUES (1, POINT(1, 2))")[0]).toBe(3643);
  });

  it('a column with an SRID refuses a geometry of another SRID (ER_WRONG_SRID_FOR_COLUMN)', () => {
    run('CREATE TABLE s (id INT PRIMARY KEY, p POINT NOT NULL SRID 4326)');
    expect(failure("INSERT INTO s VALUES (1, ST_GeomFromText('POINT(10 20)'))")).toEqual([
      3643,
      "The SRID of the geometry does not match the SRID of the column 'p'. The SRID of the geometry is 0, but the SRID of the column is 4326. Consider changing the SRID of the geometry or the SRID property of the column.",
    ]);
    run("INSERT INTO s VALUES (1, ST_GeomFromText('POINT(10 20)', 4326))");
    // EPSG 4326 is latitude first in WKT and longitude first in storage
    expect(rows('SELECT ST_AsText(p), ST_X(p), ST_Y(p), ST_SRID(p), HEX(p) FROM s')).toEqual([['POINT(10 20)', 10, 20, 4326, 'E6100000010100000000000000000034400000000000002440']]);
  });

  it('a value that is no geometry, or a geometry of another type, is ER_CANT_CREATE_GEOMETRY_OBJECT (MariaDB 10.11.19 for text)', () => {
    run('CREATE TABLE s (id INT PRIMARY KEY, p POINT, g GEOMETRY)');
    expect(failure("INSERT INTO s VALUES (1, NULL, 'abc')")).toEqual(CANT_CREATE);
    expect(failure('INSERT INTO s VALUES (1, NULL, 1)')).toEqual(CANT_CREATE);
    expect(failure("INSERT INTO s VALUES (1, ST_GeomFromText('LINESTRING(0 0,1 1)'), NULL)")).toEqual(CANT_CREATE);
    run('INSERT INTO s VALUES (1, POINT(1, 2), NULL)');
    expect(failure('UPDATE s SET g = 5')).toEqual(CANT_CREATE);
    run("UPDATE s SET g = ST_GeomFromText('MULTIPOINT(1 1,2 2)')");
    expect(rows('SELECT ST_AsText(p), ST_AsText(g) FROM s')).toEqual([['POINT(1 2)', 'MULTIPOINT((1 1),(2 2))']]);
  });

  it('a spatial column takes no literal default (ER_BLOB_CANT_HAVE_DEFAULT)', () => {
    expect(failure("CREATE TABLE s (g GEOMETRY DEFAULT 'x')")).toEqual([1101, "BLOB, TEXT, GEOMETRY or JSON column 'g' can't have a default value"]);
  });
});

describe('the spatial functions', () => {
  it('WKT in, WKT and WKB out', () => {
    expect(
      rows(
        "SELECT ST_AsText(ST_GeometryFromText('MULTIPOLYGON(((0 0,1 0,1 1,0 0)))')), ST_AsWKT(ST_PointFromText('POINT(3 4)')), ST_AsText(ST_LineStringFromText('LINESTRING(0 0, 1 1)')), ST_AsText(ST_PolygonFromText('POLYGON((0 0,1 0,1 1,0 0))'))",
      ),
    ).toEqual([['MULTIPOLYGON(((0 0,1 0,1 1,0 0)))', 'POINT(3 4)', 'LINESTRING(0 0,1 1)', 'POLYGON((0 0,1 0,1 1,0 0))']]);
    // MariaDB 10.11.19: HEX(ST_AsBinary(ST_GeomFromText('POINT(1 1)'))), ST_AsText(ST_GeomFromWKB(ST_AsBinary(POINT(1,2))))
    expect(rows("SELECT HEX(ST_AsBinary(ST_GeomFromText('POINT(1 1)'))), HEX(ST_AsWKB(POINT(1, 1))), ST_AsText(ST_GeomFromWKB(ST_AsBinary(POINT(1, 2))))")).toEqual([
      ['0101000000000000000000F03F000000000000F03F', '0101000000000000000000F03F000000000000F03F', 'POINT(1 2)'],
    ]);
    expect(rows("SELECT ST_SRID(ST_GeomFromText('POINT(1 1)', 3857)), ST_SRID(ST_GeomFromWKB(ST_AsBinary(POINT(1, 2)), 3857)), ST_X(POINT(3, 4)), ST_Y(POINT(3, 4)), ST_GeometryType(ST_GeomFromText('LINESTRING(2 1, 6 6)'))")).toEqual([[3857, 3857, 3, 4, 'LINESTRING']]);
    expect(rows('SELECT ST_GeomFromText(NULL), ST_AsText(NULL), POINT(NULL, 1)')).toEqual([[null, null, null]]);
  });

  it('text that is no geometry is ER_GIS_INVALID_DATA naming the function', () => {
    expect(failure("SELECT ST_GeomFromText('POINT(1)')")).toEqual([3037, 'Invalid GIS data provided to function st_geomfromtext.']);
    expect(failure("SELECT ST_GeometryFromText('LINESTRING(0 0)')")).toEqual([3037, 'Invalid GIS data provided to function st_geometryfromtext.']);
    expect(failure("SELECT ST_PointFromText('LINESTRING(0 0,1 1)')")).toEqual([3037, 'Invalid GIS data provided to function st_pointfromtext.']);
    expect(failure("SELECT ST_AsText('abc')")).toEqual([3037, 'Invalid GIS data provided to function st_astext.']);
  });

  it('a geographic SRID checks latitude and longitude', () => {
    expect(failure("SELECT ST_GeomFromText('POINT(100 20)', 4326)")).toEqual([3617, 'Latitude 100.000000 is out of range in function st_geomfromtext. It must be within [-90.000000, 90.000000].']);
  });
});
