/**
 * Binds a parsed query to an index: analysis of match text, per-type term and range logic,
 * filter context (no scores, cached doc sets) and, in classic mode, Lucene 4's queryNorm.
 */
import type { IndexShard } from '../index/shard.js';
import type { FieldMapper } from '../mapping/mapping.js';
import { getAnalyzer } from '../analysis/analyzers.js';
import { parseDate, parseDateMath } from '../mapping/dates.js';
import { cidrRange, ipv4ToNumber, parseIp } from '../mapping/ip.js';
import { EsError, illegalArgument } from '../errors.js';
import { classicQueryNorm } from '../similarity/classic.js';
import { f32 } from '../similarity/java-float.js';
import type { QueryNode } from './ast.js';
import type { FilterCache } from './filter-cache.js';
import { NO_MORE_DOCS } from './scorers.js';
import {
  BooleanWeight,
  ConstantWeight,
  ConstantWrapWeight,
  DisMaxWeight,
  MatchNoneWeight,
  TermWeight,
  type Clause,
  type Mode,
  type Weight,
  type WeightContext,
} from './weights.js';

export interface BuildContext extends WeightContext {
  now: number;
  cache?: FilterCache;
}

export function contextFor(shard: IndexShard, now: number, cache?: FilterCache): BuildContext {
  const mode: Mode = shard.defaultSimilarity.kind === 'classic' ? 'classic' : 'modern';
  return { shard, mode, now, cache };
}

/** The top-level weight, normalized in classic mode (IndexSearcher.createNormalizedWeight). */
export function createWeight(ctx: BuildContext, node: QueryNode): Weight {
  const w = build(ctx, node, true, 1);
  // classic terms (the index default or a field's similarity) take Lucene 4's queryNorm
  const v = w.valueForNormalization();
  if (ctx.mode === 'classic' || v > 0) {
    const norm = classicQueryNorm(v);
    w.normalize(norm, 1);
  }
  return w;
}

/** In modern mode boosts multiply down the tree (Lucene 9 BoostQuery); in classic mode each query keeps its own. */
function boostFor(ctx: BuildContext, parent: number, own: number): number {
  return ctx.mode === 'classic' ? own : f32(parent * own);
}

function build(ctx: BuildContext, node: QueryNode, scoring: boolean, parentBoost: number): Weight {
  if (!scoring) return filterWeight(ctx, node);
  const boost = boostFor(ctx, parentBoost, node.boost);
  switch (node.kind) {
    case 'match_all':
      return new ConstantWeight(ctx, '*:*', () => 'all', boost);
    case 'match_none':
      return new MatchNoneWeight('MatchNoDocsQuery("User requested "match_none" query.")');
    case 'match':
      return matchWeight(ctx, node.field, node.query, node, boost);
    case 'multi_match': {
      const fields = expandFields(ctx.shard, node.fields);
      const subs = fields.map(([f, fb]) => matchWeight(ctx, f, node.query, node, ctx.mode === 'classic' ? f32(node.boost * fb) : f32(boost * fb), true));
      if (subs.length === 0) return new MatchNoneWeight('MatchNoDocsQuery("no fields")');
      return subs.length === 1 ? subs[0]! : new DisMaxWeight(subs, node.tieBreaker);
    }
    case 'term': {
      const mapper = ctx.shard.mapping.fields.get(node.field);
      if (!mapper) return new MatchNoneWeight(`MatchNoDocsQuery("unmapped field [${node.field}]")`);
      if ((mapper.type === 'text' || mapper.type === 'keyword') && !node.caseInsensitive) {
        return new TermWeight(ctx, mapper, ctx.shard.inverted.get(mapper.path), String(node.value), boost);
      }
      return constantFromDocs(ctx, node, boost);
    }
    case 'bool':
      return boolWeight(ctx, node, boost);
    case 'constant_score': {
      const inner = build(ctx, node.filter, false, 1);
      return new ConstantWrapWeight(ctx, inner, boost);
    }
    default:
      return constantFromDocs(ctx, node, boost);
  }
}

/** A clause in filter context: no score; its doc set may come from the filter cache. */
function filterWeight(ctx: BuildContext, node: QueryNode): Weight {
  if (node.kind === 'bool') return boolWeight(ctx, node, 0, false);
  const inner = node.kind === 'term' || node.kind === 'match' || node.kind === 'multi_match' || node.kind === 'match_all' ? build(ctx, node, true, 1) : undefined;
  if (inner instanceof TermWeight) {
    // a term filter is its postings list (decoded when asked for); top-k uses the field's bitset
    const t = inner;
    const w = new ConstantWeight(ctx, t.label, () => (t.field && t.termId >= 0 && t.docFreq > 0 ? t.field.termDocs(t.termId) : new Int32Array(0)), 1, false);
    w.termSource = t.field && t.termId >= 0 ? { field: t.field, termId: t.termId } : undefined;
    return w;
  }
  const key = JSON.stringify(node);
  ctx.cache?.onUse(key);
  const label = inner?.label ?? labelOf(ctx, node);
  return new ConstantWeight(
    ctx,
    label,
    () => {
      const compute = () => (inner ? drain(inner) : docsOf(ctx, node));
      return ctx.cache ? ctx.cache.get(node.kind, key, ctx.shard.generation, ctx.shard.searchMaxDoc, compute) : compute();
    },
    // Lucene 9 builds filter-clause weights with the bool's boost (1) and no scores: a matching
    // filter explains as 1.0; the boolean scorers never add filter scores.
    1,
    false,
  );
}

function drain(w: Weight): Int32Array {
  const s = w.scorer();
  if (!s) return new Int32Array(0);
  const out: number[] = [];
  for (let d = s.nextDoc(); d !== NO_MORE_DOCS; d = s.nextDoc()) out.push(d);
  return Int32Array.from(out);
}

function constantFromDocs(ctx: BuildContext, node: QueryNode, boost: number): Weight {
  return new ConstantWeight(ctx, labelOf(ctx, node), () => docsOf(ctx, node), boost);
}

function boolWeight(ctx: BuildContext, node: Extract<QueryNode, { kind: 'bool' }>, boost: number, scoring = true): Weight {
  const clauses: Clause[] = [];
  const childBoost = ctx.mode === 'classic' ? 1 : boost;
  for (const q of node.must) clauses.push({ occur: scoring ? 'must' : 'filter', weight: build(ctx, q, scoring, childBoost) });
  for (const q of node.should) clauses.push({ occur: 'should', weight: build(ctx, q, scoring, childBoost) });
  for (const q of node.filter) clauses.push({ occur: 'filter', weight: build(ctx, q, false, 1) });
  for (const q of node.mustNot) clauses.push({ occur: 'must_not', weight: build(ctx, q, false, 1) });
  const shoulds = node.should.length;
  // Elasticsearch: with should clauses and no must/filter, at least one should must match
  const dflt = shoulds > 0 && node.must.length === 0 && node.filter.length === 0 ? '1' : '0';
  let msm = minimumShouldMatch(node.minimumShouldMatch ?? dflt, shoulds);
  if (node.minimumShouldMatch === undefined && dflt === '0') msm = 0;
  if (clauses.length === 0) return new ConstantWeight(ctx, '*:*', () => 'all', scoring ? boost : 0);
  // Elasticsearch adds a match_all filter to a bool that has only must_not clauses
  if (clauses.every((c) => c.occur === 'must_not')) clauses.push({ occur: 'filter', weight: new ConstantWeight(ctx, '*:*', () => 'all', 1, false) });
  // Lucene rewrites a bool with a single scoring clause to that clause
  if (clauses.length === 1 && (clauses[0]!.occur === 'must' || (clauses[0]!.occur === 'should' && msm <= 1)) && ctx.mode === 'modern') return clauses[0]!.weight;
  return new BooleanWeight(ctx, clauses, msm, ctx.mode === 'classic' ? boost : 1);
}

/** Elasticsearch's minimum_should_match: "2", "-1", "75%", "-25%", and "n<p" combinations. */
export function minimumShouldMatch(spec: string, optional: number): number {
  const s = spec.trim();
  if (s.includes('<')) {
    let result = optional;
    for (const part of s.split(/\s+/)) {
      const [cond, value] = part.split('<') as [string, string];
      if (optional > Number(cond)) result = minimumShouldMatch(value, optional);
    }
    return result;
  }
  let result: number;
  if (s.endsWith('%')) {
    const pct = Number(s.slice(0, -1));
    if (!Number.isFinite(pct)) throw illegalArgument(`invalid minimum_should_match [${spec}]`);
    const calc = Math.trunc((pct * optional) / 100);
    result = pct < 0 ? optional + calc : calc;
  } else {
    const n = Number(s);
    if (!Number.isInteger(n)) throw illegalArgument(`invalid minimum_should_match [${spec}]`);
    result = n < 0 ? optional + n : n;
  }
  return Math.max(0, Math.min(optional, result));
}

function matchWeight(
  ctx: BuildContext,
  field: string,
  query: string | number | boolean,
  opts: { operator: 'or' | 'and'; minimumShouldMatch?: string; analyzer?: string } & { zeroTermsQuery?: 'none' | 'all' },
  boost: number,
  lenient = false,
): Weight {
  const mapper = ctx.shard.mapping.fields.get(field);
  if (!mapper) return new MatchNoneWeight(`MatchNoDocsQuery("unmapped field [${field}]")`);
  if (mapper.type !== 'text') {
    if (mapper.type === 'keyword') return new TermWeight(ctx, mapper, ctx.shard.inverted.get(field), String(query), boost);
    try {
      return constantFromDocs(ctx, { kind: 'term', field, value: query, boost: 1, caseInsensitive: false }, boost);
    } catch (err) {
      if (lenient) return new MatchNoneWeight(`MatchNoDocsQuery("failed [${field}] query, caused by ${(err as Error).message}")`);
      throw err;
    }
  }
  const analyzer = getAnalyzer(opts.analyzer ?? mapper.searchAnalyzer);
  const terms = analyzer.terms(String(query));
  if (terms.length === 0) {
    return opts.zeroTermsQuery === 'all' ? new ConstantWeight(ctx, '*:*', () => 'all', boost) : new MatchNoneWeight('MatchNoDocsQuery("Matching no documents because no terms present")');
  }
  const field_ = ctx.shard.inverted.get(field);
  const termBoost = ctx.mode === 'classic' ? 1 : boost;
  const weights = terms.map((t) => new TermWeight(ctx, mapper, field_, t, termBoost));
  if (weights.length === 1) return ctx.mode === 'classic' ? new TermWeight(ctx, mapper, field_, terms[0]!, boost) : weights[0]!;
  const occur = opts.operator === 'and' ? 'must' : 'should';
  const msm = occur === 'should' && opts.minimumShouldMatch !== undefined ? minimumShouldMatch(opts.minimumShouldMatch, weights.length) : 0;
  return new BooleanWeight(ctx, weights.map((weight) => ({ occur, weight })), msm, ctx.mode === 'classic' ? boost : 1);
}

function expandFields(shard: IndexShard, specs: string[]): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const spec of specs) {
    const [pattern, b] = spec.split('^') as [string, string | undefined];
    const boost = b === undefined ? 1 : Number(b);
    if (pattern.includes('*')) {
      const re = new RegExp('^' + pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
      for (const m of shard.mapping.fields.values()) if (re.test(m.path) && (m.type === 'text' || m.type === 'keyword')) out.push([m.path, boost]);
    } else out.push([pattern, boost]);
  }
  return out;
}

// ---- doc sets of constant-score queries ---------------------------------------------------

function mapperOf(ctx: BuildContext, field: string): FieldMapper | undefined {
  return ctx.shard.mapping.fields.get(field);
}

const isNumericType = (m: FieldMapper) => !['text', 'keyword', 'ip'].includes(m.type);

/** Lucene's toString of a constant-score query. */
function labelOf(ctx: BuildContext, node: QueryNode): string {
  switch (node.kind) {
    case 'range': {
      const b = rangeBounds(ctx, node);
      if (!b) return `${node.field}:[* TO *]`;
      const show = (v: number | string | undefined) => (v === undefined ? '*' : String(v));
      return `${node.field}:${b.includeLower ? '[' : '{'}${show(b.lower)} TO ${show(b.upper)}${b.includeUpper ? ']' : '}'}`;
    }
    case 'term': {
      const m = mapperOf(ctx, node.field);
      if (m && isNumericType(m) && m.type !== 'boolean') {
        const v = numericValue(m, node.value, ctx.now);
        return `${node.field}:[${v} TO ${v}]`;
      }
      if (m?.type === 'boolean') return `${node.field}:${node.value === true || node.value === 'true' ? 'T' : 'F'}`;
      return `${node.field}:${String(node.value)}`;
    }
    case 'terms':
      return `${node.field}:(${node.values.map(String).join(' ')})`;
    case 'exists':
      return `FieldExistsQuery [field=${node.field}]`;
    case 'ids':
      return `_id:(${node.values.join(' ')})`;
    case 'prefix':
      return `${node.field}:${node.value}*`;
    case 'match_all':
      return '*:*';
    default:
      return node.kind;
  }
}

function numericValue(m: FieldMapper, value: unknown, now: number): number {
  if (m.type === 'date') {
    const v = typeof value === 'string' ? parseDateMath(value, m.format, now, false) : parseDate(value, m.format);
    if (v === undefined) throw new EsError('parse_exception', `failed to parse date field [${String(value)}] with format [${m.format}]`, 400);
    return v;
  }
  if (m.type === 'boolean') {
    if (value === true || value === 'true') return 1;
    if (value === false || value === 'false') return 0;
    throw illegalArgument(`Can't parse boolean value [${String(value)}], expected [true] or [false]`);
  }
  const n = Number(value);
  if (typeof value === 'boolean' || value === '' || !Number.isFinite(n)) throw new EsError('number_format_exception', `For input string: "${String(value)}"`, 400);
  return n;
}

interface Bounds {
  lower?: number | string;
  upper?: number | string;
  includeLower: boolean;
  includeUpper: boolean;
}

function rangeBounds(ctx: BuildContext, node: Extract<QueryNode, { kind: 'range' }>): Bounds | undefined {
  const m = mapperOf(ctx, node.field);
  if (!m) return undefined;
  const lowerRaw = node.gte ?? node.gt;
  const upperRaw = node.lte ?? node.lt;
  const includeLower = node.gt === undefined;
  const includeUpper = node.lt === undefined;
  if (m.type === 'text' || m.type === 'keyword') {
    return { lower: lowerRaw === undefined ? undefined : String(lowerRaw), upper: upperRaw === undefined ? undefined : String(upperRaw), includeLower, includeUpper };
  }
  const conv = (v: unknown, roundUp: boolean): number | undefined => {
    if (v === undefined || v === null) return undefined;
    if (m.type === 'date') {
      const format = node.format ?? m.format;
      const ms = typeof v === 'string' ? parseDateMath(v, format, ctx.now, roundUp) : parseDate(v, format);
      if (ms === undefined) throw new EsError('parse_exception', `failed to parse date field [${String(v)}] with format [${format}]`, 400);
      return ms;
    }
    if (m.type === 'ip') {
      const ip = parseIp(String(v));
      const n = ip === undefined ? undefined : ipv4ToNumber(ip);
      if (n === undefined) throw illegalArgument(`'${String(v)}' is not an IP string literal.`);
      return n;
    }
    return numericValue(m, v, ctx.now);
  };
  let lower = conv(lowerRaw, node.gt !== undefined);
  let upper = conv(upperRaw, node.lte !== undefined);
  // whole-number fields (and dates) turn exclusive bounds into inclusive ones, as Lucene's point queries do
  const integral = ['long', 'integer', 'short', 'byte', 'date', 'ip', 'boolean', 'unsigned_long'].includes(m.type);
  if (integral) {
    if (lower !== undefined) lower = includeLower ? Math.ceil(lower) : Math.floor(lower) + 1;
    if (upper !== undefined) upper = includeUpper ? Math.floor(upper) : Math.ceil(upper) - 1;
    return { lower, upper, includeLower: true, includeUpper: true };
  }
  return { lower, upper, includeLower, includeUpper };
}

function docsOf(ctx: BuildContext, node: QueryNode): Int32Array {
  const shard = ctx.shard;
  const maxDoc = shard.searchMaxDoc;
  switch (node.kind) {
    case 'range': {
      const m = mapperOf(ctx, node.field);
      if (!m) return new Int32Array(0);
      const b = rangeBounds(ctx, node)!;
      if (m.type === 'text' || m.type === 'keyword') {
        const lo = b.lower as string | undefined;
        const hi = b.upper as string | undefined;
        return termsUnion(ctx, m, (t) => (lo === undefined || (b.includeLower ? t >= lo : t > lo)) && (hi === undefined || (b.includeUpper ? t <= hi : t < hi)));
      }
      const lo = (b.lower as number | undefined) ?? -Infinity;
      const hi = (b.upper as number | undefined) ?? Infinity;
      const test = (v: number) => (b.includeLower ? v >= lo : v > lo) && (b.includeUpper ? v <= hi : v < hi);
      return scanColumn(ctx, m.path, test);
    }
    case 'term':
    case 'terms': {
      const m = mapperOf(ctx, node.field);
      if (!m) return new Int32Array(0);
      const values = node.kind === 'term' ? [node.value] : node.values;
      if (m.type === 'text' || m.type === 'keyword') {
        if (node.kind === 'term' && node.caseInsensitive) {
          const want = String(node.value).toLowerCase();
          return termsUnion(ctx, m, (t) => t.toLowerCase() === want);
        }
        const set = new Set(values.map(String));
        return termsUnion(ctx, m, (t) => set.has(t), [...set]);
      }
      if (m.type === 'ip') {
        const ranges: Array<[number, number]> = [];
        const exact: string[] = [];
        for (const v of values) {
          const cidr = cidrRange(String(v));
          if (cidr) ranges.push(cidr);
          else {
            const ip = parseIp(String(v));
            if (ip === undefined) throw illegalArgument(`'${String(v)}' is not an IP string literal.`);
            exact.push(ip);
          }
        }
        const v6 = exact.filter((ip) => ipv4ToNumber(ip) === undefined);
        const v4 = new Set(exact.map(ipv4ToNumber).filter((n): n is number => n !== undefined));
        const byTerm = termsUnion(ctx, m, (t) => v6.includes(t), v6);
        const byNumber = scanColumn(ctx, m.path, (v) => v4.has(v) || ranges.some(([a, z]) => v >= a && v <= z));
        return union([byTerm, byNumber]);
      }
      const nums = new Set(values.map((v) => numericValue(m, v, ctx.now)));
      return scanColumn(ctx, m.path, (v) => nums.has(v));
    }
    case 'exists': {
      const mappers = [...shard.mapping.fields.values()].filter((m) => m.path === node.field || m.path.startsWith(node.field + '.'));
      return union(mappers.map((m) => existsDocs(ctx, m)));
    }
    case 'ids': {
      const docs: number[] = [];
      for (const id of node.values) {
        const d = shard.lookup(id);
        if (d !== undefined && d < maxDoc) docs.push(d);
      }
      return Int32Array.from(new Set(docs)).sort();
    }
    case 'prefix': {
      const m = mapperOf(ctx, node.field);
      if (!m) return new Int32Array(0);
      if (m.type !== 'text' && m.type !== 'keyword' && m.type !== 'ip') throw illegalArgument(`Can only use prefix queries on keyword and text fields - not on [${node.field}] which is of type [${m.type}]`);
      const p = node.caseInsensitive ? node.value.toLowerCase() : node.value;
      return termsUnion(ctx, m, (t) => (node.caseInsensitive ? t.toLowerCase() : t).startsWith(p));
    }
    default:
      throw illegalArgument(`[${node.kind}] cannot be used as a constant-score query`);
  }
}

function existsDocs(ctx: BuildContext, m: FieldMapper): Int32Array {
  const shard = ctx.shard;
  const maxDoc = shard.searchMaxDoc;
  const out: number[] = [];
  const inv = shard.inverted.get(m.path);
  const col = shard.numeric.get(m.path);
  if (m.type === 'text' && inv) {
    for (let d = 0; d < maxDoc; d++) if (inv.norms[d]) out.push(d);
  } else if (col) {
    for (let d = 0; d < maxDoc; d++) if (col.has(d)) out.push(d);
  } else if (inv) {
    return termsUnion(ctx, m, () => true);
  }
  return Int32Array.from(out);
}

function scanColumn(ctx: BuildContext, path: string, test: (v: number) => boolean): Int32Array {
  const col = ctx.shard.numeric.get(path);
  if (!col) return new Int32Array(0);
  const maxDoc = Math.min(ctx.shard.searchMaxDoc, col.length);
  let out = new Int32Array(1024);
  let n = 0;
  for (let d = 0; d < maxDoc; d++) {
    const v = col.get(d);
    if (v !== v) continue; // NaN: no value
    let ok = test(v);
    if (!ok && col.extra.size) ok = (col.extra.get(d) ?? []).some(test);
    if (ok) {
      if (n === out.length) {
        const g = new Int32Array(n * 2);
        g.set(out);
        out = g;
      }
      out[n++] = d;
    }
  }
  return out.subarray(0, n);
}

/** Docs that have any searchable term of `m` accepted by `accept` (`exact` skips the dictionary scan). */
function termsUnion(ctx: BuildContext, m: FieldMapper, accept: (t: string) => boolean, exact?: string[]): Int32Array {
  const f = ctx.shard.inverted.get(m.path);
  if (!f) return new Int32Array(0);
  const ids: number[] = [];
  if (exact) {
    for (const t of exact) {
      const id = f.termIds.get(t);
      if (id !== undefined && id < f.searchableTerms) ids.push(id);
    }
  } else {
    for (let id = 0; id < f.searchableTerms; id++) if (accept(f.terms[id]!)) ids.push(id);
  }
  return union(ids.map((id) => f.termDocs(id)));
}

function union(lists: Int32Array[]): Int32Array {
  const nonEmpty = lists.filter((l) => l.length > 0);
  if (nonEmpty.length === 0) return new Int32Array(0);
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  const total = nonEmpty.reduce((s, l) => s + l.length, 0);
  const all = new Int32Array(total);
  let at = 0;
  for (const l of nonEmpty) {
    all.set(l, at);
    at += l.length;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i]!;
  return all.subarray(0, n);
}
