/**
 * Java float arithmetic and printing. Lucene computes scores in float32; `f32` is Java's
 * implicit rounding after each float operation, and `javaFloatString` prints a float the way
 * `Float.toString` does on the JDKs Elasticsearch 8 bundles (shortest decimal that reads back
 * as the same float32, JDK 19+ algorithm).
 */
export const f32 = Math.fround;

/** Java's `Float.toString(f)`: plain notation for 1e-3 <= |f| < 1e7, else `d.dddE±n`. */
export function javaFloatString(value: number): string {
  const x = Math.fround(value);
  return special(x) ?? javaNotation(x, shortestDigits(Math.abs(x)));
}

/** Java's `Double.toString(d)` (JDK 19+: the shortest decimal that reads back as the same double), laid out like Float.toString. */
export function javaDoubleString(value: number): string {
  const special_ = special(value);
  if (special_ !== undefined) return special_;
  // JavaScript's shortest round-trip digits are the same choice
  const [mant, exp] = Math.abs(value).toExponential().split('e') as [string, string];
  return javaNotation(value, { digits: mant.replace('.', ''), exponent: Number(exp) + 1 });
}

function special(x: number): string | undefined {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  return undefined;
}

/** `digits` "d1d2…dn" and `exponent` mean 0.d1d2…dn × 10^exponent. */
function javaNotation(x: number, { digits, exponent }: { digits: string; exponent: number }): string {
  const abs = Math.abs(x);
  let text: string;
  if (abs >= 1e-3 && abs < 1e7) {
    if (exponent <= 0) {
      text = '0.' + '0'.repeat(-exponent) + digits;
    } else if (exponent >= digits.length) {
      text = digits + '0'.repeat(exponent - digits.length) + '.0';
    } else {
      text = digits.slice(0, exponent) + '.' + digits.slice(exponent);
    }
  } else {
    const mantissa = digits.length === 1 ? digits + '.0' : digits[0] + '.' + digits.slice(1);
    text = `${mantissa}E${exponent - 1}`;
  }
  return x < 0 ? '-' + text : text;
}

/** Shortest decimal digit string (no trailing zeros) whose value rounds to `x` in float32; among equals the closest. */
function shortestDigits(x: number): { digits: string; exponent: number } {
  // Java prints at least two significant digits when choosing (1.4E-45, not 1.0E-45).
  for (let p = 2; p <= 9; p++) {
    const [mant, expText] = x.toExponential(p - 1).split('e') as [string, string];
    const exp10 = Number(expText);
    const intDigits = BigInt(mant.replace('.', ''));
    let best: { d: bigint; dist: number } | undefined;
    for (const delta of [0n, -1n, 1n]) {
      const d = intDigits + delta;
      if (d <= 0n) continue;
      const candidate = Number(`${d}e${exp10 - (p - 1)}`);
      if (Math.fround(candidate) !== x) continue;
      const dist = Math.abs(candidate - x);
      if (!best || dist < best.dist) best = { d, dist };
    }
    if (best) {
      let s = best.d.toString();
      // a carry (e.g. 9.99 → 10.0) adds a digit
      const exponent = exp10 + 1 + (s.length - p);
      s = s.replace(/0+$/, '');
      return { digits: s === '' ? '0' : s, exponent };
    }
  }
  throw new Error(`no float32 representation for ${x}`);
}
