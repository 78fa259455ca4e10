/**
 * A document's `_source` as stored: Elasticsearch answers it with the bytes it was sent
 * (`1.0` stays `1.0`, spacing stays), so a parsed source carries its text along, out of sight of
 * JSON.stringify and of callers that read it as an object. The REST writer prints that text when
 * it writes compact JSON; filtered sources are new objects and are serialised again, as in
 * Elasticsearch.
 */
export const RAW_JSON = Symbol('loupe.rawJson');

export function parseKeepingText(text: string): Record<string, unknown> {
  const value = JSON.parse(text) as Record<string, unknown>;
  Object.defineProperty(value, RAW_JSON, { value: text.trim(), enumerable: false });
  return value;
}

export function rawTextOf(value: object): string | undefined {
  return (value as { [RAW_JSON]?: string })[RAW_JSON];
}
