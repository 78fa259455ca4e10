import { describe, expect, it } from 'vitest';
import { javaFloatString } from './java-float.js';

const fromBits = (bits: number) => new Float32Array(new Int32Array([bits]).buffer)[0]!;

describe('scores print the way Java prints a float', () => {
  // Pairs of Float.floatToIntBits and Float.toString printed by OpenJDK 17 (/tmp program, not committed).
  const javaPrinted: [number, string][] = [
    [1071177927, '1.6943597'],
    [981668463, '0.001'],
    [953267991, '1.0E-4'],
    [1259902592, '1.0E7'],
    [786163455, '1.0E-10'],
    [1206984805, '123456.79'],
    [2139095039, '3.4028235E38'],
    [1, '1.4E-45'],
    [1036831949, '0.1'],
    [1074580685, '2.2'],
    [1120403456, '100.0'],
    [1259902591, '9999999.0'],
    [1063774422, '0.90589654'],
    [1043373793, '0.17248107'],
  ];
  it.each(javaPrinted)('bits %i print as %s', (bits, text) => {
    expect(javaFloatString(fromBits(bits))).toBe(text);
  });

  it('prints the shortest decimal that reads back as the same float32', () => {
    let seed = 12345;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const x = fromBits(seed % 0x7f000000);
      const text = javaFloatString(x);
      expect(Math.fround(Number(text))).toBe(x);
      const digits = text.replace(/E.*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
      expect(digits.length).toBeLessThanOrEqual(9);
    }
  });

  it('keeps zero, negatives and integers in Java form', () => {
    expect(javaFloatString(0)).toBe('0.0');
    expect(javaFloatString(-2.5)).toBe('-2.5');
    expect(javaFloatString(3)).toBe('3.0');
  });
});
