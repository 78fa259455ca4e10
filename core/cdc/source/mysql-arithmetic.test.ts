import { describe, expect, it } from 'vitest';
import { legacyDivide, mysqlCalc } from './mysql-arithmetic.js';

// golden values: MariaDB 10.11, which agrees with MySQL 8.0 on these, side by side in select-expressions-vs-mariadb.test.ts
const calc = (program: string, ...args: (string | number | null)[]) => mysqlCalc(program, ...args);

describe("MySQL's division", () => {
  it('exact operands give the left scale plus 4 decimals, rounded half away from zero', () => {
    expect(calc('|#1 #3 /')).toBe(0.3333);
    expect(calc('|#2 #3 /')).toBe(0.6667);
    expect(calc('|#-7 #2 /')).toBe(-3.5);
    expect(calc('|#1.50 #3 /')).toBe(0.5);
    expect(calc('|#0.1 #3 /')).toBe(0.03333);
  });

  it('a DECIMAL column, kept as text, is exact at its scale', () => {
    expect(calc('|$0:c #3 /', '-3.25')).toBe(-1.083333);
    expect(calc('|$0: #3 /', '91.50')).toBe(30.5);
  });

  it('a DOUBLE or a string operand gives a DOUBLE', () => {
    expect(calc('|$0:s #3 /', '1')).toBe(1 / 3);
    expect(calc('|$0: #2 /', 2.5)).toBe(1.25);
    expect(calc('|$0:s #2 /', 'abc')).toBe(0);
    expect(calc('|#1.5e0 #3 /')).toBe(0.5);
  });

  it('x / 0, x % 0 and x DIV 0 are NULL, and ERROR 1365 in a strict write', () => {
    expect(calc('|#1 #0 /')).toBeNull();
    expect(calc('|#1 #0 %')).toBeNull();
    expect(calc('|#1 #0 D')).toBeNull();
    expect(() => calc('we|#1 #0 /')).toThrow('ERROR1365:Division by 0');
    expect(() => calc('we|#1 #0.0 %')).toThrow('ERROR1365:Division by 0');
    expect(calc('we|$0: #0 /', null)).toBeNull();
  });

  it('keeps the quotient to 9-digit words inside, and shows the left scale + 4 only at the end', () => {
    expect(calc('w|#1 #3 /')).toBe(0.333333333);
    expect(calc('wev|$0: #2 /', 5)).toBe('2.500000000');
    expect(calc('wev|$0: #2 /', -7)).toBe('-3.500000000');
    // 0.333333333 * 3 shown at scale 4, where a rounded 0.3333 * 3 would be 0.9999
    expect(calc('|#1 #3 / #3 *')).toBe(1);
    // the shown scale grows by 4 with each division: 2 / 3 / 3 is 0.22222222
    expect(calc('|#2 #3 / #3 /')).toBe(0.22222222);
  });
});

describe("MySQL's exact arithmetic", () => {
  it('+, - and * of exact values are exact, where doubles are not', () => {
    expect(calc('|#0.1 #0.2 +')).toBe(0.3);
    expect(calc('|$0:c #3 *', '0.2000')).toBe(0.6);
    expect(calc('|#1.005 #1000 *')).toBe(1005);
    expect(calc('|$0:c $1:c +', '0.10', '0.2000')).toBe(0.3);
    expect(calc('|$0:c n #1 +', '0.10')).toBe(0.9);
  });

  it('a DOUBLE or a string operand makes the operation a DOUBLE', () => {
    expect(calc('|$0:f #0.2 +', 0.1)).toBe(0.1 + 0.2);
    expect(calc('|$0:s #0.2 +', '0.1')).toBe(0.1 + 0.2);
    expect(calc('|#1e0 #0.1 +')).toBe(1.1);
  });

  it('% and MOD keep the dividend’s sign; DIV cuts toward zero', () => {
    expect(calc('|#5.5 #2 %')).toBe(1.5);
    expect(calc('|#-7 #3 %')).toBe(-1);
    expect(calc('|#7.5 #2 D')).toBe(3);
    expect(calc('|#-7 #2 D')).toBe(-3);
  });

  it('dates, times and datetimes are their digits', () => {
    expect(calc('|$0:t #0 +', '2024-02-03')).toBe(20240203);
    expect(calc('|$0:t #0 +', '2024-02-03 10:11:12')).toBe(20240203101112);
    expect(calc('|$0:t #0 +', '-01:02:03')).toBe(-10203);
    expect(calc('|$0: #1 +', '2024-02-03 10:11:12.5')).toBe(20240203101113.5);
  });

  it('text that is no number is its leading number, and ERROR 1292 in a strict data-changing statement', () => {
    expect(calc('|$0:s #1 +', '3x')).toBe(4);
    expect(() => calc('t|$0:s #1 +', '3x')).toThrow("ERROR1292:Truncated incorrect DOUBLE value: '3x'");
    expect(() => calc('wet|$0: #1 +', '')).toThrow("ERROR1292:Truncated incorrect DOUBLE value: ''");
    expect(calc('t|$0:s #1 +', ' 12 ')).toBe(13);
  });

  it('NULL anywhere is NULL', () => {
    expect(calc('|$0: #1 + #2 *', null)).toBeNull();
    expect(calc('|#1.5 $0: R2', null)).toBeNull();
  });
});

describe('ROUND and TRUNCATE', () => {
  it('of an exact value: half away from zero, to any number of places (negative too)', () => {
    expect(calc('|#1.005 #2 R2')).toBe(1.01);
    expect(calc('|#-1.005 #2 R2')).toBe(-1.01);
    expect(calc('|#2.675 #2 R2')).toBe(2.68);
    expect(calc('|#-2.5 R1')).toBe(-3);
    expect(calc('|#1234.5678 #-2 R2')).toBe(1200);
    expect(calc('|#1.5 #3 R2')).toBe(1.5);
    expect(calc('|#0.29 #2 T2')).toBe(0.29);
    expect(calc('|#-1.999 #2 T2')).toBe(-1.99);
    expect(calc('|#1299 #-2 T2')).toBe(1200);
  });

  it('of a DOUBLE: my_double_round, rint half to even on the scaled double', () => {
    expect(calc('|#2.5e0 R1')).toBe(2);
    expect(calc('|$0:f #2 R2', 0.125)).toBe(0.12);
    expect(calc('|#0.125 #2 R2')).toBe(0.13);
    expect(calc('|$0:f #2 T2', 0.29)).toBe(0.28);
    expect(calc('|$0:f #-1 R2', 25)).toBe(20);
  });

  it('of an expression, exact throughout', () => {
    expect(calc('|$0:c #1.005 * #2 R2', '1.01')).toBe(1.02);
  });
});

describe('loupe_div, which views of earlier builds call', () => {
  it('divides as loupe_calc does, with its hints', () => {
    expect(legacyDivide(1, 3, 'd0,d0,')).toBe(0.3333);
    expect(legacyDivide(1.5, 3, 'd2,d0,')).toBe(0.5);
    expect(legacyDivide('91.50', 3, ',d0,')).toBe(30.5);
    expect(legacyDivide('1', 3, 'f,d0,')).toBe(1 / 3);
    expect(legacyDivide(5, 2, ',d0,wev')).toBe('2.500000000');
    expect(() => legacyDivide(1, 0, 'd0,d0,we')).toThrow('ERROR1365:Division by 0');
  });
});

describe('the type a result has', () => {
  it('integers stay BIGINT (-2) through + - * % and DIV; a DECIMAL operand, a decimal literal or / makes a DECIMAL shown with its scale; a DOUBLE is -1', async () => {
    const { shownScale } = await import('./mysql-arithmetic.js');
    const scaleOf = (program: string, ...args: (string | number | null)[]) => {
      mysqlCalc(program, ...args);
      return shownScale(program);
    };
    expect(scaleOf('|#7 #2 D')).toBe(-2);
    expect(scaleOf('|$0: #3 %', 10)).toBe(-2);
    expect(scaleOf('|$0:c #3 *', '15')).toBe(0);
    expect(scaleOf('|$0:c #3 *', '0.2000')).toBe(4);
    expect(scaleOf('|#2 #3.5 *')).toBe(1);
    expect(scaleOf('|#1 #3 /')).toBe(4);
    expect(scaleOf('|#15.5 R1')).toBe(0);
    expect(scaleOf('|$0:i #-2 R2', 1234)).toBe(-2);
    expect(scaleOf('|$0:f #2 *', 0.5)).toBe(-1);
  });
});
