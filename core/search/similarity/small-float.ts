/**
 * Lucene's one-byte encodings of norms (org.apache.lucene.util.SmallFloat), re-derived from the
 * published formulas. Lengths and norms are stored lossily; scores use the decoded values.
 */
const floatBits = new Float32Array(1);
const intBits = new Int32Array(floatBits.buffer);

/** Float.floatToRawIntBits */
function floatToRawIntBits(f: number): number {
  floatBits[0] = f;
  return intBits[0]!;
}
function intBitsToFloat(bits: number): number {
  intBits[0] = bits;
  return floatBits[0]!;
}

/** floatToByte315: 3 mantissa bits, zero exponent 15 (Lucene 4 ClassicSimilarity norms). Returns 0..255. */
export function floatToByte315(f: number): number {
  const bits = floatToRawIntBits(f);
  const smallfloat = bits >> (24 - 3);
  if (smallfloat <= (63 - 15) << 3) return bits <= 0 ? 0 : 1;
  if (smallfloat >= ((63 - 15) << 3) + 0x100) return 255;
  return (smallfloat - ((63 - 15) << 3)) & 0xff;
}

/** byte315ToFloat: the inverse of floatToByte315 (b is 0..255). */
export function byte315ToFloat(b: number): number {
  if (b === 0) return 0;
  let bits = (b & 0xff) << (24 - 3);
  bits += (63 - 15) << 24;
  return intBitsToFloat(bits);
}

/** longToInt4: float-like encoding of a non-negative integer keeping 4 significant bits. */
function longToInt4(i: number): number {
  const numBits = i === 0 ? 0 : Math.floor(Math.log2(i)) + 1;
  if (numBits < 4) return i; // subnormal
  const shift = numBits - 4;
  let encoded = Math.floor(i / 2 ** shift) & 0x07; // drop the implicit top bit
  encoded |= (shift + 1) << 3;
  return encoded;
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

const MAX_INT4 = longToInt4(2147483647);
const NUM_FREE_VALUES = 255 - MAX_INT4; // 24

/** intToByte4: lengths below 24 map to themselves, larger ones keep 4 significant bits (0..255). */
export function intToByte4(i: number): number {
  if (i < 0) throw new RangeError(`Only supports positive values, got ${i}`);
  if (i < NUM_FREE_VALUES) return i;
  return NUM_FREE_VALUES + longToInt4(i - NUM_FREE_VALUES);
}

/** byte4ToInt: decodes intToByte4 (b is 0..255). */
export function byte4ToInt(b: number): number {
  const i = b & 0xff;
  if (i < NUM_FREE_VALUES) return i;
  return NUM_FREE_VALUES + int4ToLong(i - NUM_FREE_VALUES);
}

/** BM25's LENGTH_TABLE: decoded field length for each norm byte. */
export const LENGTH_TABLE: Float32Array = Float32Array.from({ length: 256 }, (_, i) => byte4ToInt(i));

/** ClassicSimilarity's NORM_TABLE: decoded fieldNorm for each norm byte. */
export const NORM_TABLE: Float32Array = Float32Array.from({ length: 256 }, (_, i) => byte315ToFloat(i));
