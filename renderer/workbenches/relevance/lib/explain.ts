/**
 * Reading Lucene explanations: the formula of a BM25 or classic TF/IDF node with its numbers
 * put in, each term's share of the score, the failing clauses of a why-not, and two hits'
 * trees aligned by clause. Pure functions over Elasticsearch's `_explanation` JSON.
 */
import type { SearchExplanation } from '../../../../core/host/contract.js';

export type Ex = SearchExplanation;

/** Numbers as people read them: up to 4 significant digits, integers as they are. */
export function fmt(v: number): string {
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 0.001 || a >= 1e6)) return v.toExponential(2);
  return String(Number(v.toPrecision(a >= 1 ? 4 : 3)));
}

const child = (n: Ex, prefix: string): Ex | undefined => n.details.find((d) => d.description.startsWith(prefix));

/** The formula of a node with its children's values put in, or null when it has none. */
export function formulaOf(n: Ex): string | null {
  const d = n.description;
  if (d.startsWith('idf, computed as log(1 + (N - n + 0.5) / (n + 0.5))')) {
    const nn = child(n, 'n,')?.value;
    const N = child(n, 'N,')?.value;
    if (nn === undefined || N === undefined) return null;
    return `idf = ln(1 + (N − n + 0.5) / (n + 0.5)) = ln(1 + (${fmt(N)} − ${fmt(nn)} + 0.5) / (${fmt(nn)} + 0.5)) = ${fmt(n.value)}`;
  }
  if (d.startsWith('tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl))')) {
    const freq = child(n, 'freq,')?.value;
    const k1 = child(n, 'k1,')?.value;
    const b = child(n, 'b,')?.value;
    const dl = child(n, 'dl,')?.value;
    const avgdl = child(n, 'avgdl,')?.value;
    if ([freq, k1, b, dl, avgdl].some((x) => x === undefined)) return null;
    return `tf = freq / (freq + k1 · (1 − b + b · dl / avgdl)) = ${fmt(freq!)} / (${fmt(freq!)} + ${fmt(k1!)} · (1 − ${fmt(b!)} + ${fmt(b!)} · ${fmt(dl!)} / ${fmt(avgdl!)})) = ${fmt(n.value)}`;
  }
  if (/^score\(freq=[\d.]+\), computed as boost \* idf \* tf from:/.test(d)) {
    const boost = child(n, 'boost')?.value ?? 1;
    const idf = child(n, 'idf,')?.value;
    const tf = child(n, 'tf,')?.value;
    if (idf === undefined || tf === undefined) return null;
    return `score = boost · idf · tf = ${fmt(boost)} · ${fmt(idf)} · ${fmt(tf)} = ${fmt(n.value)}`;
  }
  let m = /^tf\(freq=([\d.]+)\), with freq of:/.exec(d);
  if (m) return `tf = √freq = √${fmt(Number(m[1]))} = ${fmt(n.value)}`;
  m = /^idf\(docFreq=(\d+), maxDocs=(\d+)\)/.exec(d);
  if (m) return `idf = 1 + ln(maxDocs / (docFreq + 1)) = 1 + ln(${m[2]} / (${m[1]} + 1)) = ${fmt(n.value)}`;
  if (/^fieldWeight in \d+, product of:/.test(d) || d === 'queryWeight, product of:' || /^score\(doc=\d+,freq=[\d.]+\), product of:/.test(d) || d === 'product of:') {
    if (n.details.length < 2) return null;
    const name = d.startsWith('fieldWeight') ? 'fieldWeight' : d.startsWith('queryWeight') ? 'queryWeight' : d.startsWith('score') ? 'score' : 'product';
    const parts = n.details.map((c) => shortName(c.description));
    return `${name} = ${parts.join(' · ')} = ${n.details.map((c) => fmt(c.value)).join(' · ')} = ${fmt(n.value)}`;
  }
  if (d === 'sum of:' && n.details.length > 1) return `sum = ${n.details.map((c) => fmt(c.value)).join(' + ')} = ${fmt(n.value)}`;
  return null;
}

function shortName(desc: string): string {
  const m = /^(\w+)/.exec(desc);
  return m ? m[1]! : desc;
}

/** `weight(message:login in 3) [PerFieldSimilarity], result of:` → field, term. */
export function weightKey(desc: string): { field: string; term: string } | null {
  const m = /^weight\((.+?):(.*) in \d+\) \[/.exec(desc);
  return m ? { field: m[1]!, term: m[2]! } : null;
}

export interface TermShare {
  field: string;
  term: string;
  value: number;
  /** 0..1 of the root score. */
  share: number;
  freq?: number;
  idf?: number;
  tf?: number;
  dl?: number;
}

/** Every term's contribution (the weight(...) nodes), biggest first. */
export function termShares(root: Ex): TermShare[] {
  const out = new Map<string, TermShare>();
  const total = root.value || 1;
  const walk = (n: Ex) => {
    const k = weightKey(n.description);
    if (k) {
      const key = `${k.field}:${k.term}`;
      const prev = out.get(key);
      const stats = termStats(n);
      out.set(key, { ...k, ...stats, value: (prev?.value ?? 0) + n.value, share: ((prev?.value ?? 0) + n.value) / total });
      return;
    }
    n.details.forEach(walk);
  };
  walk(root);
  return [...out.values()].sort((a, b) => b.value - a.value);
}

function termStats(weight: Ex): Pick<TermShare, 'freq' | 'idf' | 'tf' | 'dl'> {
  const s: Pick<TermShare, 'freq' | 'idf' | 'tf' | 'dl'> = {};
  const walk = (n: Ex) => {
    const d = n.description;
    if (d.startsWith('idf')) s.idf ??= n.value;
    if (d.startsWith('tf')) s.tf ??= n.value;
    if (d.startsWith('freq,') || d.startsWith('termFreq=')) s.freq ??= n.value;
    if (d.startsWith('dl,')) s.dl ??= n.value;
    n.details.forEach(walk);
  };
  walk(weight);
  return s;
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

/** "`login` gives 71 % of the score, `failed` 29 %". */
export function summaryLine(root: Ex): string {
  const shares = termShares(root);
  if (shares.length === 0) return root.value === 0 ? 'No term scored: the document matched only filters or scored 0.' : `The score ${fmt(root.value)} comes from clauses without terms (constant scores, boosts).`;
  const named = (s: TermShare, i: number) => (i === 0 ? `\`${s.term}\` gives ${pct(s.share)} of the score` : `\`${s.term}\` ${pct(s.share)}`);
  const multiField = new Set(shares.map((s) => s.field)).size > 1;
  const label = (s: TermShare, i: number) => (multiField ? named({ ...s, term: `${s.field}:${s.term}` }, i) : named(s, i));
  const shown = shares.slice(0, 5).map(label);
  const rest = shares.length > 5 ? `, ${shares.length - 5} more ${pct(shares.slice(5).reduce((a, s) => a + s.share, 0))}` : '';
  return shown.join(', ') + rest;
}

/** The terms the explanation matched, per field, for highlighting. */
export function matchedTerms(root: Ex): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const s of termShares(root)) {
    const set = out.get(s.field) ?? new Set<string>();
    set.add(s.term.toLowerCase());
    out.set(s.field, set);
  }
  return out;
}

/** Cuts a text into runs, marking words whose lower case is a matched term. */
export function highlightRuns(text: string, terms: Set<string>): { text: string; hit: boolean }[] {
  const runs: { text: string; hit: boolean }[] = [];
  const re = /[\p{L}\p{N}_']+/gu;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (!terms.has(m[0].toLowerCase())) continue;
    if (m.index > last) runs.push({ text: text.slice(last, m.index), hit: false });
    runs.push({ text: m[0], hit: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) runs.push({ text: text.slice(last), hit: false });
  return runs;
}

export interface Failure {
  /** The description as Lucene wrote it. */
  description: string;
  kind: 'filter' | 'required' | 'prohibited' | 'minimum_should_match' | 'other';
  /** field → the query's terms or range for that field, as written in the description. */
  clauses: { field: string; expr: string }[];
}

/** The why-not failures with the fields they name (`failure to match filter: bytes:[1000 TO *]`). */
export function parseFailure(description: string): Failure {
  const kind: Failure['kind'] = description.startsWith('failure to match filter')
    ? 'filter'
    : description.startsWith('no match on required clause')
      ? 'required'
      : description.startsWith('match on prohibited clause')
        ? 'prohibited'
        : description.startsWith('Failure to match minimum number')
          ? 'minimum_should_match'
          : 'other';
  const body = description.replace(/^failure to match filter: /, '').replace(/^(no match on required clause|match on prohibited clause) \(/, '').replace(/\)$/, '');
  const clauses: { field: string; expr: string }[] = [];
  const re = /([\p{L}\p{N}_.@-]+):(\[[^\]]*\]|\{[^}]*\}|"[^"]*"|[^\s()]+)/gu;
  for (let m = re.exec(body); m; m = re.exec(body)) clauses.push({ field: m[1]!, expr: m[2]! });
  return { description, kind, clauses };
}

/** A dotted path's value in a document source (`http.response.bytes`), nested or flattened. */
export function valueAt(source: Record<string, unknown> | undefined, field: string): unknown {
  if (!source || typeof source !== 'object') return undefined;
  if (field in source) return source[field];
  const parts = field.split('.');
  for (let k = 1; k < parts.length; k++) {
    const head = parts.slice(0, k).join('.');
    const next = source[head];
    if (next && typeof next === 'object' && !Array.isArray(next)) {
      const v = valueAt(next as Record<string, unknown>, parts.slice(k).join('.'));
      if (v !== undefined) return v;
    }
  }
  // A multi-field (message.keyword) holds its parent's value.
  if (parts.length > 1) return valueAt(source, parts.slice(0, -1).join('.'));
  return undefined;
}

export interface CompareRow {
  key: string;
  field: string;
  term: string;
  a?: TermShare;
  b?: TermShare;
  /** a.value − b.value */
  diff: number;
}

/** Two hits' term contributions aligned by clause (field:term). */
export function alignByClause(a: Ex, b: Ex): CompareRow[] {
  const as = new Map(termShares(a).map((s) => [`${s.field}:${s.term}`, s]));
  const bs = new Map(termShares(b).map((s) => [`${s.field}:${s.term}`, s]));
  const keys = [...new Set([...as.keys(), ...bs.keys()])];
  return keys
    .map((key) => {
      const x = as.get(key);
      const y = bs.get(key);
      const s = (x ?? y)!;
      return { key, field: s.field, term: s.term, ...(x ? { a: x } : {}), ...(y ? { b: y } : {}), diff: (x?.value ?? 0) - (y?.value ?? 0) };
    })
    .sort((p, q) => Math.abs(q.diff) - Math.abs(p.diff));
}

function why(r: CompareRow, winner: 'a' | 'b'): string {
  const w = winner === 'a' ? r.a : r.b;
  const l = winner === 'a' ? r.b : r.a;
  if (!l) return `only it matches \`${r.term}\` (+${fmt(Math.abs(r.diff))})`;
  const reasons: string[] = [];
  if (w?.freq !== undefined && l.freq !== undefined && w.freq !== l.freq) reasons.push(`${fmt(w.freq)} occurrence${w.freq === 1 ? '' : 's'} against ${fmt(l.freq)}`);
  if (w?.dl !== undefined && l.dl !== undefined && w.dl !== l.dl) reasons.push(`a ${w.dl < l.dl ? 'shorter' : 'longer'} field (${fmt(w.dl)} terms against ${fmt(l.dl)})`);
  return `\`${r.term}\` scores ${fmt(Math.abs(r.diff))} more${reasons.length ? ` (${reasons.join(', ')})` : ''}`;
}

/** One sentence: why the first ranks above the second. */
export function whyAbove(aId: string, a: Ex, bId: string, b: Ex): string {
  const rows = alignByClause(a, b);
  const [hi, hiId, loId, sign] = a.value >= b.value ? (['a', aId, bId, 1] as const) : (['b', bId, aId, -1] as const);
  const gap = Math.abs(a.value - b.value);
  if (gap === 0) return `${aId} and ${bId} score the same (${fmt(a.value)}); Lucene then orders them by internal doc id.`;
  const helping = rows.filter((r) => r.diff * sign > 0).slice(0, 2);
  const hurting = rows.filter((r) => r.diff * sign < 0).slice(0, 1);
  let s = `${hiId} ranks above ${loId} by ${fmt(gap)} (${fmt(Math.max(a.value, b.value))} against ${fmt(Math.min(a.value, b.value))})`;
  if (helping.length) s += ` because ${helping.map((r) => why(r, hi)).join(' and ')}`;
  if (hurting.length) s += `, although ${why(hurting[0]!, hi === 'a' ? 'b' : 'a').replace(/^/, `${loId}'s `)}`;
  return `${s}.`;
}

/** A node with a stable id (its path) for the tree view. */
export interface FlatNode {
  id: string;
  depth: number;
  node: Ex;
  hasChildren: boolean;
}

/** The visible rows of a tree: nodes whose ancestors are all expanded. */
export function visibleNodes(root: Ex, expanded: ReadonlySet<string>): FlatNode[] {
  const out: FlatNode[] = [];
  const walk = (n: Ex, id: string, depth: number) => {
    out.push({ id, depth, node: n, hasChildren: n.details.length > 0 });
    if (n.details.length > 0 && expanded.has(id)) n.details.forEach((c, i) => walk(c, `${id}.${i}`, depth + 1));
  };
  walk(root, '0', 1);
  return out;
}

/** Ids of nodes down to `depth` levels, for the tree's first view. */
export function idsToDepth(root: Ex, depth: number): Set<string> {
  const out = new Set<string>();
  const walk = (n: Ex, id: string, d: number) => {
    if (d >= depth || n.details.length === 0) return;
    out.add(id);
    n.details.forEach((c, i) => walk(c, `${id}.${i}`, d + 1));
  };
  walk(root, '0', 0);
  return out;
}
