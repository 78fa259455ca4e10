/**
 * MySQL's reading of text as a DOUBLE (my_strntod): the longest number at its start, after
 * blanks, 0 when there is none. `whole` says whether only blanks follow it, the text MySQL reads
 * without a "Truncated incorrect DOUBLE value" warning.
 */
const LEADING_NUMBER = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/i;

export function leadingNumber(text: string): { value: number; whole: boolean } {
  const m = LEADING_NUMBER.exec(text);
  return m ? { value: Number(m[0]), whole: text.slice(m[0].length).trim() === '' } : { value: 0, whole: false };
}
