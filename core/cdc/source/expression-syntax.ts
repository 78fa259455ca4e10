/**
 * MySQL expression and SELECT syntax SQLite lacks, rewritten outside quoted text: RLIKE (SQLite's
 * REGEXP calls the connection's regexp function), CONVERT(x, type) and CONVERT(x USING cs),
 * a DIV b and a MOD b, the locking clauses (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE, which one
 * writer has no use for), SELECT's optimizer modifiers (SQL_NO_CACHE …), and @@system variables,
 * which read as MySQL 8.0's values for the embedded server.
 */
import { MySqlError } from './mysql-error.js';
import { maskQuoted, replaceOutsideQuotes } from './sql-text.js';

/** @@variables clients ask for, with the embedded server's values. */
export function systemVariables(version: string, serverId: number, serverUuid: string): Record<string, string | number> {
  return {
    version,
    version_comment: 'Loupe embedded MySQL-compatible source',
    autocommit: 1,
    sql_mode: 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION',
    time_zone: 'SYSTEM',
    system_time_zone: 'UTC',
    character_set_server: 'utf8mb4',
    character_set_client: 'utf8mb4',
    character_set_connection: 'utf8mb4',
    character_set_results: 'utf8mb4',
    collation_server: 'utf8mb4_0900_ai_ci',
    collation_connection: 'utf8mb4_0900_ai_ci',
    transaction_isolation: 'REPEATABLE-READ',
    tx_isolation: 'REPEATABLE-READ',
    max_allowed_packet: 67108864,
    lower_case_table_names: 0,
    server_id: serverId,
    server_uuid: serverUuid,
    log_bin: 1,
    binlog_format: 'ROW',
    binlog_row_image: 'FULL',
    gtid_mode: 'ON',
    enforce_gtid_consistency: 'ON',
    hostname: 'localhost',
    port: 3306,
    read_only: 0,
    innodb_autoinc_lock_mode: 2,
    wait_timeout: 28800,
    interactive_timeout: 28800,
    net_write_timeout: 60,
    auto_increment_increment: 1,
    auto_increment_offset: 1,
  };
}

const SQL_TYPES = /^(signed|unsigned)(\s+integer)?$|^(char|nchar|binary|date|datetime|time|decimal|double|float|json|real)\b/i;

/** The statement with MySQL-only expression syntax written for SQLite. */
export function rewriteExpressions(sql: string, variables: Record<string, string | number>): string {
  let out = sql;
  if (/@@/.test(out)) {
    out = replaceOutsideQuotes(out, /@@(?:(?:session|global|local)\.)?([A-Za-z_][\w$]*)/gi, (_m, name: string) => {
      const v = variables[name.toLowerCase()];
      if (v === undefined) throw new MySqlError(1193, 'HY000', `Unknown system variable '${name}'`);
      return typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`;
    });
  }
  if (/\brlike\b/i.test(out)) out = replaceOutsideQuotes(out, /\brlike\b/gi, () => 'REGEXP');
  if (/\bconvert\s*\(/i.test(out)) {
    out = replaceOutsideQuotes(out, /\bconvert\s*\(((?:[^()]|\([^()]*\))*?)(?:,\s*([A-Za-z]+(?:\s+integer)?(?:\s*\(\s*\d+(?:\s*,\s*\d+)?\s*\))?)|\s+using\s+\w+)\s*\)/gi, (_m, expr: string, type: string | undefined) =>
      type && SQL_TYPES.test(type.trim()) ? `CAST(${expr} AS ${type})` : `(${expr})`,
    );
  }
  if (/\bcast\s*\(/i.test(out)) out = rewriteCasts(out);
  if (/\bgroup_concat\s*\(/i.test(out)) out = rewriteGroupConcat(out);
  if (/\bdiv\b/i.test(out)) {
    out = replaceOutsideQuotes(out, /((?:[\w.`]+(?:\([^()]*\))?|\([^()]*\)))\s+div\s+((?:[\w.`]+(?:\([^()]*\))?|\([^()]*\)))/gi, (_m, a: string, b: string) => `CAST((${a}) / (${b}) AS INTEGER)`);
  }
  if (/\bmod\b/i.test(out)) out = replaceOutsideQuotes(out, /\s\bmod\b\s(?!\s*\()/gi, () => ' % ');
  if (/^\s*(\(\s*)*select\b/i.test(out)) {
    out = replaceOutsideQuotes(out, /\b(?:for\s+update|for\s+share|lock\s+in\s+share\s+mode)(?:\s+of\s+[\w`.,\s]+?)?(?:\s+(?:nowait|skip\s+locked))?(?=\s*(?:\)|;|$))/gi, () => '');
    // after SELECT only: ALL and DISTINCT stay (DISTINCTROW is DISTINCT), the optimizer hints go
    out = replaceOutsideQuotes(out, /\bselect((?:\s+(?:all|distinct|distinctrow|high_priority|straight_join|sql_small_result|sql_big_result|sql_buffer_result|sql_no_cache|sql_cache|sql_calc_found_rows)\b)+)/gi, (_m, mods: string) => {
      const kept = mods.trim().split(/\s+/).map((w) => w.toUpperCase()).filter((w) => w === 'ALL' || w === 'DISTINCT' || w === 'DISTINCTROW');
      return ['SELECT', ...kept.map((w) => (w === 'DISTINCTROW' ? 'DISTINCT' : w))].join(' ');
    });
  }
  return out;
}

/**
 * CAST(x AS DATE|DATETIME|TIME) as SQLite's date functions, CAST(x AS SIGNED|UNSIGNED) as MySQL
 * converts (numbers rounded, text read up to its first non-digit); other types as they are.
 */
function rewriteCasts(sql: string): string {
  const masked = maskQuoted(sql);
  const re = /\bcast\s*\(/gi;
  let out = '';
  let last = 0;
  for (let m = re.exec(masked); m; m = re.exec(masked)) {
    const open = m.index + m[0].length - 1;
    let depth = 0;
    let as = -1;
    let close = -1;
    for (let j = open; j < masked.length; j++) {
      const c = masked[j]!;
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) {
        close = j;
        break;
      } else if (depth === 1 && /\s/.test(c) && /^\s+as\s/i.test(masked.slice(j))) as = j;
    }
    if (as < 0 || close < 0) continue;
    const type = masked.slice(as, close).replace(/^\s+as\s+/i, '').trim().toLowerCase();
    const expr = rewriteCasts(sql.slice(open + 1, as));
    let replacement: string | undefined;
    if (type === 'date' || type === 'datetime' || type === 'time') replacement = `${type}(${expr})`;
    else if (/^(signed|unsigned)(\s+integer)?$/.test(type)) replacement = `loupe_cast_integer(${expr})`;
    if (replacement === undefined) continue;
    out += sql.slice(last, m.index) + replacement;
    last = close + 1;
    re.lastIndex = close + 1;
  }
  return out + sql.slice(last);
}

/** Index of the `)` closing the `(` at `open` in masked text, or -1. */
function closingParen(masked: string, open: number): number {
  let depth = 0;
  for (let j = open; j < masked.length; j++) {
    if (masked[j] === '(') depth++;
    else if (masked[j] === ')' && --depth === 0) return j;
  }
  return -1;
}

/** Top-level comma positions in masked[from, to). */
function topCommas(masked: string, from: number, to: number): number[] {
  const out: number[] = [];
  let depth = 0;
  for (let j = from; j < to; j++) {
    if (masked[j] === '(') depth++;
    else if (masked[j] === ')') depth--;
    else if (masked[j] === ',' && depth === 0) out.push(j);
  }
  return out;
}

/**
 * GROUP_CONCAT([DISTINCT] e1[, e2…] [ORDER BY …] [SEPARATOR 's']) as SQLite's
 * group_concat(x, 's' ORDER BY …): several expressions are concatenated per row first, as MySQL
 * does. DISTINCT with a separator of its own has no SQLite form and is left as written.
 */
function rewriteGroupConcat(sql: string): string {
  const masked = maskQuoted(sql);
  const re = /\bgroup_concat\s*\(/gi;
  let out = '';
  let last = 0;
  for (let m = re.exec(masked); m; m = re.exec(masked)) {
    const open = m.index + m[0].length - 1;
    const close = closingParen(masked, open);
    if (close < 0) break;
    const inner = masked.slice(open + 1, close);
    const text = sql.slice(open + 1, close);
    const sep = /\sseparator\s+/i.exec(inner);
    const orderAt = inner.search(/\sorder\s+by\s/i);
    const sepAt = sep ? sep.index : -1;
    const exprEnd = Math.min(...[sepAt, orderAt, inner.length].filter((i) => i >= 0));
    const distinct = /^\s*distinct\s/i.exec(inner);
    const separator = sep ? text.slice(sep.index + sep[0].length).trim() : undefined;
    if (distinct && separator !== undefined && separator !== "','") continue;
    const exprStart = distinct ? distinct[0].length : 0;
    const commas = topCommas(inner, exprStart, exprEnd);
    const exprs = [exprStart, ...commas.map((c) => c + 1)].map((from, i) => text.slice(from, i < commas.length ? commas[i] : exprEnd).trim());
    const value = exprs.length > 1 ? `concat(${exprs.join(', ')})` : exprs[0]!;
    const order = orderAt >= 0 ? ` ${text.slice(orderAt, sepAt > orderAt ? sepAt : inner.length).trim()}` : '';
    const args = distinct ? `DISTINCT ${value}` : `${value}, ${separator ?? "','"}`;
    out += sql.slice(last, m.index) + `group_concat(${args}${order})`;
    last = close + 1;
    re.lastIndex = close + 1;
  }
  return out + sql.slice(last);
}
