/**
 * Spatial columns in Debezium 1.9.8's change events: the tutorial's geom table (inventory.sql) as
 * the MySQL connector emits it, GEOMETRY as io.debezium.data.geometry.Geometry {wkb, srid} and
 * POINT as io.debezium.data.geometry.Point {x, y, wkb, srid} (MySqlValueConverters, MySqlGeometry
 * and debezium-core's data/geometry at tag v1.9.8.Final), written by the JsonConverter with the
 * WKB as base64. The first row's wkb is the one the Debezium tutorial shows for POINT(1 1).
 */
import { describe, expect, it } from 'vitest';
import { JsonConverter } from '../../converters/json-converter.js';
import type { Schema } from '../../plugin.js';
import { sourceColumnType } from './source-column-type.js';
import { base, drain, source, task } from './task-harness.test-util.js';

const GEOM = `CREATE TABLE geom (id INTEGER NOT NULL AUTO_INCREMENT PRIMARY KEY, g GEOMETRY NOT NULL, h GEOMETRY);
INSERT INTO geom VALUES(default, ST_GeomFromText('POINT(1 1)'), NULL),
      (default, ST_GeomFromText('LINESTRING(2 1, 6 6)'), NULL),
      (default, ST_GeomFromText('POLYGON((0 5, 2 5, 2 7, 0 7, 0 5))'), NULL);`;

const json = (schema: unknown, value: unknown) => JSON.parse(new JsonConverter({ 'schemas.enable': 'true' }).fromConnectData('t', schema as Schema, value)!) as { schema: { fields: { field: string; fields?: unknown[] }[] }; payload: Record<string, unknown> };

/** Geometry.builder(): optional whatever the column says. */
const GEOMETRY_SCHEMA = (field: string) => ({
  type: 'struct',
  fields: [
    { type: 'bytes', optional: false, field: 'wkb' },
    { type: 'int32', optional: true, field: 'srid' },
  ],
  optional: true,
  name: 'io.debezium.data.geometry.Geometry',
  version: 1,
  doc: 'Geometry',
  field,
});

describe('spatial columns in Debezium change events', () => {
  it("the tutorial's geom rows: GEOMETRY as a Geometry struct with the WKB in base64 and no SRID (0 is unset)", async () => {
    const src = await source();
    src.executeSync('demo', GEOM);
    const t = await task(src, { ...base, 'table.include.list': 'demo.geom' });
    const records = (await drain(t)).filter((r) => r.topic === 'dbserver1.demo.geom');
    expect(records.map((r) => (r.value as { after: unknown }).after)).toEqual([
      { id: 1, g: { wkb: 'AQEAAAAAAAAAAADwPwAAAAAAAPA/', srid: null }, h: null },
      { id: 2, g: { wkb: 'AQIAAAACAAAAAAAAAAAAAEAAAAAAAADwPwAAAAAAABhAAAAAAAAAGEA=', srid: null }, h: null },
      { id: 3, g: { wkb: 'AQMAAAABAAAABQAAAAAAAAAAAAAAAAAAAAAAFEAAAAAAAAAAQAAAAAAAABRAAAAAAAAAAEAAAAAAAAAcQAAAAAAAAAAAAAAAAAAAHEAAAAAAAAAAAAAAAAAAABRA', srid: null }, h: null },
    ]);
    const first = json(records[0]!.valueSchema, records[0]!.value);
    const after = first.schema.fields.find((f) => f.field === 'after')!.fields!;
    expect(after).toEqual([{ type: 'int32', optional: false, field: 'id' }, GEOMETRY_SCHEMA('g'), GEOMETRY_SCHEMA('h')]);
    expect((first.payload.after as Record<string, unknown>).g).toEqual({ wkb: 'AQEAAAAAAAAAAADwPwAAAAAAAPA/', srid: null });
  });

  it('a streamed POINT is a Point struct {x, y, wkb, srid} read from the stored bytes (EPSG 4326 stores longitude first)', async () => {
    const src = await source();
    src.executeSync('demo', 'CREATE TABLE places (id INT PRIMARY KEY, p POINT NOT NULL SRID 4326, q POINT, shape POLYGON SRID 3857)');
    const t = await task(src, { ...base, 'table.include.list': 'demo.places', 'snapshot.mode': 'schema_only' });
    await drain(t);
    src.executeSync('demo', "INSERT INTO places VALUES (1, ST_GeomFromText('POINT(10.25 20.5)', 4326), POINT(1.5, -2.5), ST_GeomFromText('POLYGON((0 0,1 0,1 1,0 0))', 3857))");
    const [insert] = (await drain(t)).filter((r) => r.topic === 'dbserver1.demo.places');
    const out = json(insert!.valueSchema, insert!.value);
    expect((out.payload.after as Record<string, unknown>).p).toEqual({ x: 20.5, y: 10.25, wkb: 'AQEAAAAAAAAAAIA0QAAAAAAAgCRA', srid: 4326 });
    expect((out.payload.after as Record<string, unknown>).q).toEqual({ x: 1.5, y: -2.5, wkb: 'AQEAAAAAAAAAAAD4PwAAAAAAAATA', srid: null });
    expect((out.payload.after as { shape: { srid: number } }).shape.srid).toBe(3857);
    const fields = out.schema.fields.find((f) => f.field === 'after')!.fields as Record<string, unknown>[];
    // Point.builder() is not optional: a NOT NULL POINT column has a required field
    expect(fields.find((f) => f.field === 'p')).toEqual({
      type: 'struct',
      fields: [
        { type: 'double', optional: false, field: 'x' },
        { type: 'double', optional: false, field: 'y' },
        { type: 'bytes', optional: true, field: 'wkb' },
        { type: 'int32', optional: true, field: 'srid' },
      ],
      optional: false,
      name: 'io.debezium.data.geometry.Point',
      version: 1,
      doc: 'Geometry (POINT)',
      field: 'p',
    });
    expect(fields.find((f) => f.field === 'q')).toMatchObject({ optional: true, name: 'io.debezium.data.geometry.Point' });
    expect(fields.find((f) => f.field === 'shape')).toEqual(GEOMETRY_SCHEMA('shape'));
  });

  it('the source type of a spatial column is its name with java.sql.Types.OTHER and no length (MySqlAntlrDdlParser: SpatialDataTypeContext)', () => {
    const col = (baseType: string) => ({ name: 'c', baseType, args: [], unsigned: false, nullable: true, defaultExpr: null });
    expect(sourceColumnType(col('geometry'))).toEqual({ typeName: 'GEOMETRY', jdbcType: 1111, length: null, scale: null });
    expect(sourceColumnType(col('geomcollection'))).toEqual({ typeName: 'GEOMCOLLECTION', jdbcType: 1111, length: null, scale: null });
  });
});
