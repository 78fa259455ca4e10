/**
 * A hit's `sort` values and the Java type Elasticsearch gives each: a float field's value (and
 * `_score`) is a Float, a double field's a Double, and Jackson prints them as Java does (`1.0`,
 * `1.0E7`), while long, integer and date values print as integers. The types ride along on the
 * array, out of sight of JSON.stringify and of callers that read the numbers.
 */
export type JavaNumberType = 'float' | 'double' | undefined;

const JAVA_TYPES = Symbol('loupe.sortJavaTypes');

export function withJavaTypes<T extends unknown[]>(values: T, types: JavaNumberType[]): T {
  if (types.some((t) => t !== undefined)) Object.defineProperty(values, JAVA_TYPES, { value: types, enumerable: false });
  return values;
}

export function javaTypesOf(values: unknown[]): JavaNumberType[] | undefined {
  return (values as { [JAVA_TYPES]?: JavaNumberType[] })[JAVA_TYPES];
}

/** The Java type of a sort on a field of this mapping type (or `_score`). */
export function sortJavaType(field: string, mappingType: string | undefined): JavaNumberType {
  if (field === '_score') return 'float';
  if (mappingType === 'float' || mappingType === 'half_float') return 'float';
  if (mappingType === 'double' || mappingType === 'scaled_float') return 'double';
  return undefined;
}
