import { describe, expect, it } from 'vitest';
import { mysqlDivide } from './mysql-division.js';

// golden values: MariaDB 10.11 (which agrees with MySQL 8.0 on division) side by side, select-expressions-vs-mariadb.test.ts
describe("MySQL's division", () => {
  it('exact operands give the left scale plus 4 decimals, rounded half away from zero', () => {
    expect(mysqlDivide(1, 3, 'd0,d0,')).toBe(0.3333);
    expect(mysqlDivide(2, 3, 'd0,d0,')).toBe(0.6667);
    expect(mysqlDivide(-7, 2, 'd0,d0,')).toBe(-3.5);
    expect(mysqlDivide(1.5, 3, 'd2,d0,')).toBe(0.5);
    expect(mysqlDivide(0.1, 3, 'd1,d0,')).toBe(0.03333);
  });

  it('a DECIMAL column, kept as text, is exact at its scale', () => {
    expect(mysqlDivide('-3.25', 3, ',d0,')).toBe(-1.083333);
    expect(mysqlDivide('91.50', 3, ',d0,')).toBe(30.5);
  });

  it('a DOUBLE or a string operand gives a DOUBLE', () => {
    expect(mysqlDivide('1', 3, 'f,d0,')).toBe(1 / 3);
    expect(mysqlDivide(2.5, 2, ',d0,')).toBe(1.25);
    expect(mysqlDivide('abc', 2, 'f,d0,')).toBe(0);
  });

  it('x / 0 is NULL, and ERROR 1365 in a strict write', () => {
    expect(mysqlDivide(1, 0, 'd0,d0,')).toBeNull();
    expect(() => mysqlDivide(1, 0, 'd0,d0,we')).toThrow('ERROR1365:Division by 0');
    expect(mysqlDivide(null, 0, 'd0,d0,we')).toBeNull();
  });

  it('a write keeps the quotient to 9-digit words, cut, and a stored value is its text', () => {
    expect(mysqlDivide(1, 3, 'd0,d0,w')).toBe(0.333333333);
    expect(mysqlDivide(5, 2, ',d0,wev')).toBe('2.500000000');
    expect(mysqlDivide(-7, 2, ',d0,wev')).toBe('-3.500000000');
  });
});
