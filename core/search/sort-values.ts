/**
 * A hit's `sort` values as Elasticsearch prints them. A float field's value (and `_score`) is a
 * Java Float, a double field's a Double, and Jackson prints them as Java does (`1.0`, `1.0E7`);
 * long, integer and date values print as integers. A document without a value sorts with
 * the value Elasticsearch puts in its place and shows it: Long.MAX_VALUE or Long.MIN_VALUE
 * (9223372036854775807, which a JavaScript number cannot hold) for whole numbers and dates,
 * Infinity for floats and doubles, null for keywords. How to print each value rides along on
 * the array, out of sight of JSON.stringify and of callers that read the values (they see null
 * for a missing one).
 */
export type SortPrint = 'float' | 'double' | { text: string } | undefined;

const SORT_PRINT = Symbol('loupe.sortPrint');

export function withSortPrint<T extends unknown[]>(values: T, print: SortPrint[]): T {
  if (print.some((t) => t !== undefined)) Object.defineProperty(values, SORT_PRINT, { value: print, enumerable: false });
  return values;
}

export function sortPrintOf(values: unknown[]): SortPrint[] | undefined {
  return (values as { [SORT_PRINT]?: SortPrint[] })[SORT_PRINT];
}

const FLOATS = new Set(['float', 'half_float']);
const DOUBLES = new Set(['double', 'scaled_float']);
const WHOLE = new Set(['long', 'integer', 'short', 'byte', 'date', 'boolean', 'unsigned_long']);

/**
 * How a sort value prints: `value` is undefined when the document has none; `low` whether the
 * missing value sorts as the lowest (asc with _first, desc with _last).
 */
export function sortPrint(field: string, mappingType: string | undefined, value: unknown, low: boolean): SortPrint {
  if (field === '_score') return 'float';
  const float = mappingType !== undefined && FLOATS.has(mappingType);
  const double = mappingType !== undefined && DOUBLES.has(mappingType);
  if (value === undefined) {
    if (float || double) return { text: low ? '"-Infinity"' : '"Infinity"' };
    if (mappingType !== undefined && WHOLE.has(mappingType)) return { text: low ? '-9223372036854775808' : '9223372036854775807' };
    return undefined;
  }
  return float ? 'float' : double ? 'double' : undefined;
}
