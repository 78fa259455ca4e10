/**
 * The JSON schema of the search request body the embedded engine understands, for the query
 * editor's completion, hover help and squiggles. Field names of the selected index appear as
 * property names of the field-taking clauses, so the editor completes them. query-schema.test.ts
 * runs every clause, option and snippet here through the engine's own parser, and checks that
 * the queries the parser knows and the schema lists are the same, so the two never disagree.
 */

export interface SchemaField {
  path: string;
  type: string;
}

type Schema = Record<string, unknown>;

const scalar: Schema = { type: ['string', 'number', 'boolean'] };
const boost: Schema = { type: 'number', description: 'Multiplies the clause\'s score (default 1).' };
const name: Schema = { type: 'string', description: 'A name for the clause, shown in matched_queries.' };
const msm: Schema = { type: ['string', 'integer'], description: 'How many optional clauses (or terms) must match: a number (2), a negative number (-1), a percentage ("75%").', examples: ['1', '75%'] };

/** A clause `{ "<field>": spec }` whose field names come from the mapping. */
function perField(spec: Schema, fields: string[], description: string, shorthand?: Schema): Schema {
  const value = shorthand ? { anyOf: [shorthand, spec] } : spec;
  return {
    type: 'object',
    description,
    minProperties: 1,
    properties: { ...Object.fromEntries(fields.map((f) => [f, value])), boost, _name: name },
    additionalProperties: value,
  };
}

export const QUERY_DESCRIPTIONS: Record<string, string> = {
  match: 'Full-text query: the text is analyzed with the field\'s analyzer and each token becomes a term query (OR by default). Scored with BM25.',
  multi_match: 'A match query over several fields (best_fields: the best field\'s score, plus tie_breaker times the others).',
  term: 'An exact term, not analyzed: on a text field it must equal one of the indexed (lower-cased) tokens.',
  terms: 'Any of several exact terms (constant score).',
  ids: 'Documents by _id.',
  prefix: 'Terms starting with a prefix (constant score).',
  exists: 'Documents that have a value in the field.',
  range: 'Values within bounds (gt, gte, lt, lte); dates take date math ("now-1d/d").',
  constant_score: 'Wraps a filter and gives every match the same score (boost).',
  bool: 'Combines clauses: must (scored, required), filter (required, not scored), should (scored, optional), must_not (excluded).',
  match_all: 'Every document, score 1.',
  match_none: 'No document.',
};

export function querySchema(fieldList: SchemaField[] = []): Schema {
  const all = fieldList.map((f) => f.path);
  const textish = fieldList.filter((f) => f.type === 'text' || f.type === 'keyword' || f.type === 'match_only_text').map((f) => f.path);
  const q = { $ref: '#/definitions/query' };
  const clauses = { anyOf: [q, { type: 'array', items: q }] };
  const matchSpec: Schema = {
    type: 'object',
    required: ['query'],
    additionalProperties: false,
    properties: {
      query: { ...scalar, description: 'The text to analyze and search for.' },
      operator: { enum: ['or', 'and', 'OR', 'AND'], description: 'or: any token matches; and: all tokens must match.' },
      minimum_should_match: msm,
      analyzer: { type: 'string', description: 'Analyzer for the query text (default: the field\'s search analyzer).', examples: ['standard', 'simple', 'whitespace', 'keyword'] },
      boost,
      zero_terms_query: { enum: ['none', 'all'], description: 'What to match when the analyzer removes every token.' },
      lenient: { type: 'boolean' },
      auto_generate_synonyms_phrase_query: { type: 'boolean' },
      _name: name,
    },
  };
  const termSpec: Schema = { type: 'object', required: ['value'], additionalProperties: false, properties: { value: scalar, boost, case_insensitive: { type: 'boolean' }, _name: name } };
  const prefixSpec: Schema = { type: 'object', required: ['value'], additionalProperties: false, properties: { value: { type: 'string' }, boost, case_insensitive: { type: 'boolean' }, _name: name } };
  const bound: Schema = { type: ['string', 'number', 'null'] };
  const rangeSpec: Schema = {
    type: 'object',
    additionalProperties: false,
    properties: {
      gt: bound,
      gte: bound,
      lt: bound,
      lte: bound,
      from: bound,
      to: bound,
      include_lower: { type: 'boolean' },
      include_upper: { type: 'boolean' },
      format: { type: 'string', examples: ['strict_date_optional_time', 'epoch_millis', 'yyyy-MM-dd'] },
      time_zone: { type: 'string', examples: ['+01:00', 'UTC'] },
      relation: { enum: ['INTERSECTS', 'CONTAINS', 'WITHIN'] },
      boost,
      _name: name,
    },
  };
  const fieldName: Schema = { type: 'string', examples: all };
  const queries: Record<string, Schema> = {
    match: perField(matchSpec, textish.length ? textish : all, QUERY_DESCRIPTIONS.match!, scalar),
    multi_match: {
      type: 'object',
      required: ['query'],
      additionalProperties: false,
      properties: {
        query: scalar,
        fields: { anyOf: [fieldName, { type: 'array', items: { type: 'string', examples: all.flatMap((f) => [f, `${f}^2`]) } }] },
        type: { enum: ['best_fields'], description: 'Only best_fields is supported by the embedded engine.' },
        operator: { enum: ['or', 'and', 'OR', 'AND'] },
        minimum_should_match: msm,
        analyzer: { type: 'string' },
        tie_breaker: { type: 'number', minimum: 0, maximum: 1 },
        boost,
        _name: name,
      },
    },
    term: perField(termSpec, all, QUERY_DESCRIPTIONS.term!, scalar),
    terms: { type: 'object', minProperties: 1, properties: { ...Object.fromEntries(all.map((f) => [f, { type: 'array', items: scalar }])), boost, _name: name }, additionalProperties: { type: 'array', items: scalar } },
    ids: { type: 'object', required: ['values'], additionalProperties: false, properties: { values: { type: 'array', items: { type: 'string' } }, boost, _name: name } },
    prefix: perField(prefixSpec, all, QUERY_DESCRIPTIONS.prefix!, { type: 'string' }),
    exists: { type: 'object', required: ['field'], additionalProperties: false, properties: { field: fieldName, boost, _name: name } },
    range: perField(rangeSpec, all, QUERY_DESCRIPTIONS.range!),
    constant_score: { type: 'object', required: ['filter'], additionalProperties: false, properties: { filter: q, boost, _name: name } },
    bool: {
      type: 'object',
      additionalProperties: false,
      properties: {
        must: { ...clauses, description: 'Required and scored.' },
        filter: { ...clauses, description: 'Required, not scored (cacheable).' },
        should: { ...clauses, description: 'Optional and scored; required when there is no must/filter, or per minimum_should_match.' },
        must_not: { ...clauses, description: 'Excluded, not scored.' },
        minimum_should_match: msm,
        boost,
        _name: name,
        adjust_pure_negative: { type: 'boolean' },
      },
    },
    match_all: { type: 'object', additionalProperties: false, properties: { boost, _name: name } },
    match_none: { type: 'object', additionalProperties: false, properties: { boost, _name: name } },
  };
  for (const [k, s] of Object.entries(queries)) {
    s.description ??= QUERY_DESCRIPTIONS[k];
    s.markdownDescription = `**${k}** — ${QUERY_DESCRIPTIONS[k]}`;
  }
  const sortOrder: Schema = { enum: ['asc', 'desc'] };
  const sortItem: Schema = {
    anyOf: [
      { type: 'string', examples: ['_score', '_doc', ...all] },
      {
        type: 'object',
        minProperties: 1,
        maxProperties: 1,
        additionalProperties: { anyOf: [sortOrder, { type: 'object', additionalProperties: false, properties: { order: sortOrder, missing: { anyOf: [{ enum: ['_last', '_first'] }, { type: ['number', 'string'] }] } } }] },
        properties: Object.fromEntries(['_score', '_doc', ...all].map((f) => [f, {}])),
      },
    ],
  };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Search request body',
    type: 'object',
    additionalProperties: false,
    properties: {
      query: { ...q, description: 'The query (Query DSL).' },
      size: { type: 'integer', minimum: 0, description: 'Hits to return (default 10; from + size ≤ 10,000).' },
      from: { type: 'integer', minimum: 0, description: 'Hits to skip (default 0).' },
      sort: { anyOf: [sortItem, { type: 'array', items: sortItem }], description: 'Sort order; by _score (desc) when absent.' },
      _source: { anyOf: [{ type: 'boolean' }, { type: 'string' }, { type: 'array', items: { type: 'string', examples: all } }, { type: 'object', additionalProperties: false, properties: { includes: { type: 'array', items: { type: 'string', examples: all } }, excludes: { type: 'array', items: { type: 'string', examples: all } } } }], description: 'Which parts of each document to return.' },
      track_total_hits: { type: ['boolean', 'integer'], description: 'Count hits exactly (true), not at all (false) or up to a number (default 10,000).' },
      min_score: { type: 'number' },
      explain: { type: 'boolean', description: 'Return each hit\'s explanation tree.' },
      track_scores: { type: 'boolean' },
    },
    definitions: {
      query: {
        type: 'object',
        description: 'One query clause.',
        minProperties: 1,
        maxProperties: 1,
        additionalProperties: false,
        properties: queries,
      },
    },
  };
}

/** The editor's templates: request bodies that run on the sample data. */
export const TEMPLATES: { label: string; body: Record<string, unknown> }[] = [
  { label: 'match', body: { query: { match: { subject: 'spamassassin rules' } } } },
  { label: 'term', body: { query: { term: { 'http.request.method': 'POST' } } } },
  { label: 'range', body: { query: { range: { 'http.response.bytes': { gte: 1000, lt: 10000 } } }, sort: [{ 'http.response.bytes': 'desc' }] } },
  {
    label: 'bool must + filter',
    body: { query: { bool: { must: [{ match: { message: 'login failed' } }], filter: [{ range: { 'http.response.bytes': { gte: 1000 } } }] } } },
  },
];
