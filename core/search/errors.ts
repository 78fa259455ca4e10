/**
 * The one error type of the search engine: it carries what Elasticsearch would return
 * (`type`, `reason`, HTTP `status`, and the extra fields some errors have). The REST layer
 * only serializes it.
 */
export class EsError extends Error {
  constructor(
    readonly type: string,
    readonly reason: string,
    readonly status: number,
    readonly extra: Record<string, unknown> = {},
    readonly causedBy?: { type: string; reason: string },
  ) {
    super(reason);
    this.name = 'EsError';
  }

  /** `{"error":{"root_cause":[…],"type","reason",…},"status":N}` */
  toJson(): { error: Record<string, unknown>; status: number } {
    const cause = { type: this.type, reason: this.reason, ...this.extra };
    const error: Record<string, unknown> = { root_cause: [cause], ...cause };
    if (this.causedBy) error.caused_by = this.causedBy;
    return { error, status: this.status };
  }
}

export const indexNotFound = (index: string) =>
  new EsError('index_not_found_exception', `no such index [${index}]`, 404, {
    'resource.type': 'index_or_alias',
    'resource.id': index,
    index_uuid: '_na_',
    index,
  });

export const alreadyExists = (index: string, uuid: string) =>
  new EsError('resource_already_exists_exception', `index [${index}/${uuid}] already exists`, 400, { index_uuid: uuid, index });

export const illegalArgument = (reason: string) => new EsError('illegal_argument_exception', reason, 400);

export const parsingError = (reason: string, line = 1, col = 1) => new EsError('parsing_exception', reason, 400, { line, col });

export const mapperParsing = (reason: string, causedBy?: { type: string; reason: string }) =>
  new EsError('mapper_parsing_exception', reason, 400, {}, causedBy);

export const invalidIndexName = (index: string, why: string) =>
  new EsError('invalid_index_name_exception', `Invalid index name [${index}], ${why}`, 400, { index_uuid: '_na_', index });
