import { describe, expect, it } from 'vitest';
import { sqlErrorSpot } from './sql-error-spot.js';

const syntax = (near: string, line: number) => `ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${near}' at line ${line}`;

describe('sqlErrorSpot: where a MySQL error points in the text', () => {
  it("marks the first word of a syntax error's near text on its line", () => {
    const sql = "SELECT *\nFROM customers\nWHER id = 1";
    expect(sqlErrorSpot(syntax('id = 1', 3), sql)).toEqual({ line: 3, startColumn: 6, endColumn: 8 });
  });

  it('prefers the occurrence at or after the line MySQL names', () => {
    const sql = 'SELECT 1;\nSELECT 1 1;';
    expect(sqlErrorSpot(syntax('1', 2), sql)).toEqual({ line: 2, startColumn: 8, endColumn: 9 });
  });

  it("marks the text's last character when parsing stopped at the end (near '')", () => {
    const sql = 'UPDATE customers SET name =\n';
    expect(sqlErrorSpot(syntax('', 1), sql)).toEqual({ line: 1, startColumn: 27, endColumn: 28 });
  });

  it('falls back to the whole line when the near text is not found', () => {
    expect(sqlErrorSpot(syntax('zzz', 2), 'SELECT 1\nFROM t')).toEqual({ line: 2, startColumn: 1, endColumn: 7 });
  });

  it("marks the table an unknown table error names, qualified or not, quoted or not", () => {
    expect(sqlErrorSpot("ERROR 1146 (42S02): Table 'demo.nope' doesn't exist", 'SELECT * FROM nope')).toEqual({ line: 1, startColumn: 15, endColumn: 19 });
    expect(sqlErrorSpot("ERROR 1146 (42S02): Table 'demo.nope' doesn't exist", 'SELECT *\n  FROM demo.`nope` n')).toEqual({ line: 2, startColumn: 8, endColumn: 19 });
    // not the column named nope_id
    expect(sqlErrorSpot("ERROR 1146 (42S02): Table 'demo.nope' doesn't exist", 'SELECT nope_id FROM nope')).toEqual({ line: 1, startColumn: 21, endColumn: 25 });
  });

  it('marks an unknown column', () => {
    expect(sqlErrorSpot("ERROR 1054 (42S22): Unknown column 'nam' in 'field list'", 'SELECT nam FROM customers')).toEqual({ line: 1, startColumn: 8, endColumn: 11 });
  });

  it('gives null for errors that name no place', () => {
    expect(sqlErrorSpot("ERROR 1062 (23000): Duplicate entry '1' for key 'customers.PRIMARY'", "INSERT INTO customers (id) VALUES (1)")).toBeNull();
  });
});
