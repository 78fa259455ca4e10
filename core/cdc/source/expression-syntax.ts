/**
 * MySQL expression and SELECT syntax SQLite lacks, rewritten outside quoted text: COLLATE with
 * MySQL's collation names, RLIKE (SQLite's
 * REGEXP calls the connection's regexp function), || as OR, -> and ->> as JSON_EXTRACT, CONVERT(x, type) and CONVERT(x USING cs),
 * a DIV b and a MOD b, the locking clauses (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE, which one
 * writer has no use for), SELECT's optimizer modifiers (SQL_NO_CACHE …), and @@system variables,
 * which read as MySQL 8.0's values for the embedded server. Also MySQL's `/` (division-rewrite.ts),
 * `~`, `^`, XOR, `<=>` and LIKE BINARY (mysql-operators.ts), EXTRACT and TIMESTAMPDIFF's units
 * (date-functions.ts), and the INSERT(str, pos, len, newstr) function, which SQLite would read as
 * the statement.
 */
import { rewriteDateCalls } from './date-functions.js';
import { rewriteArithmetic, type ArithmeticKind } from './arithmetic-rewrite.js';
import { DEFAULT_SQL_MODE, sqlModeEffects } from './sql-mode.js';
import { beyondDouble, isSimpleExpression } from './exact-integers.js';
import { MySqlError } from './mysql-error.js';
import { rewriteMySqlOperators } from './mysql-operators.js';
import { closingParen, maskQuoted, replaceOutsideQuotes, topLevel } from './sql-text.js';

/**
 * The collations MySQL 8.0 has for the character sets a client meets (SHOW COLLATION): utf8mb4's
 * (0900 with a language or not, unicode, general, bin), utf8mb3's, latin1's, ascii's and binary.
 */
const KNOWN_COLLATION = /^(?:(?:utf8mb4|utf8mb3|utf8)_(?:(?:[a-z]+_)?0900_(?:ai_ci|as_ci|as_cs)|0900_bin|(?:[a-z]+_)?unicode_(?:520_)?ci|general_(?:mysql500_)?ci|[a-z]+_ci|bin)|latin1_(?:swedish_ci|general_ci|general_cs|german1_ci|german2_ci|danish_ci|spanish_ci|bin)|ascii_(?:general_ci|bin)|binary)$/;

/**
 * `COLLATE name` for SQLite: a collation that tells case apart (`_bin`, `_cs`, binary) is BINARY,
 * the others NOCASE, as columns are collated (ignoresCase, mysql-ddl.ts); one MySQL does not have
 * is ER_UNKNOWN_COLLATION (MySQL 8.0 error message reference: 1273, "Unknown collation: '%s'").
 */
export function sqliteCollation(name: string): 'BINARY' | 'NOCASE' {
  const lower = name.toLowerCase();
  if (!KNOWN_COLLATION.test(lower)) throw new MySqlError(1273, 'HY000', `Unknown collation: '${name}'`);
  return /(?:_bin|_cs|^binary)$/.test(lower) ? 'BINARY' : 'NOCASE';
}

/** @@variables clients ask for, with the embedded server's values. */
export function systemVariables(version: string, serverId: number, serverUuid: string): Record<string, string | number> {
  return {
    version,
    version_comment: 'Loupe embedded MySQL-compatible source',
    autocommit: 1,
    sql_mode: DEFAULT_SQL_MODE,
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
    unique_checks: 1,
    sql_notes: 1,
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
export function rewriteExpressions(sql: string, variables: Record<string, string | number>, columns?: (column: string) => ArithmeticKind | undefined, globals: Record<string, string | number> = variables): string {
  let out = sql;
  if (/@@/.test(out)) {
    out = replaceOutsideQuotes(out, /@@(?:(session|global|local)\.)?([A-Za-z_][\w$]*)/gi, (_m, scope: string | undefined, name: string) => {
      const v = (scope?.toLowerCase() === 'global' ? globals : variables)[name.toLowerCase()];
      if (v === undefined) throw new MySqlError(1193, 'HY000', `Unknown system variable '${name}'`);
      return typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`;
    });
  }
  if (/\brlike\b/i.test(out)) out = replaceOutsideQuotes(out, /\brlike\b/gi, () => 'REGEXP');
  if (/\bcollate\b/i.test(out)) out = replaceOutsideQuotes(out, /\bcollate\s+(`[^`]*`|'[^']*'|"[^"]*"|[A-Za-z0-9_]+)/gi, (_m, name: string) => `COLLATE ${sqliteCollation(name.replace(/^[`'"](.*)[`'"]$/s, '$1'))}`);
  // `value MEMBER OF (json_array)` (MySQL 8.0.17) as a call, for a literal, a column or a variable before it
  if (/\bmember\s+of\b/i.test(out)) {
    out = replaceOutsideQuotes(out, /('(?:[^'\\]|\\.|'')*'|-?\d+(?:\.\d+)?|@?(?:`[^`]+`|[A-Za-z_][\w$]*)(?:\.(?:`[^`]+`|[A-Za-z_][\w$]*))*)\s+member\s+of\s*\(/gi, (_m, v: string) => `loupe_member_of(${v}, `);
  }
  // column->'$.path' is JSON_EXTRACT, column->>'$.path' JSON_UNQUOTE of it (SQLite's own -> and ->> differ)
  if (out.includes('->')) {
    out = replaceOutsideQuotes(out, /((?:`[^`]+`|[A-Za-z_][\w$]*)(?:\.(?:`[^`]+`|[A-Za-z_][\w$]*))*)\s*->(>?)\s*('(?:[^'\\]|\\.|'')*')/g, (_m, col: string, unq: string, path: string) =>
      unq ? `json_unquote(json_extract(${col}, ${path}))` : `json_extract(${col}, ${path})`,
    );
  }
  // MySQL's || is OR (without PIPES_AS_CONCAT in sql_mode, the default); SQLite's concatenates
  if (out.includes('||')) out = replaceOutsideQuotes(out, /\|\|/g, () => ' OR ');
  if (/\bconvert\s*\(/i.test(out)) {
    out = replaceOutsideQuotes(out, /\bconvert\s*\(((?:[^()]|\([^()]*\))*?)(?:,\s*([A-Za-z]+(?:\s+integer)?(?:\s*\(\s*\d+(?:\s*,\s*\d+)?\s*\))?)|\s+using\s+\w+)\s*\)/gi, (_m, expr: string, type: string | undefined) =>
      type && SQL_TYPES.test(type.trim()) ? `CAST(${expr} AS ${type})` : `(${expr})`,
    );
  }
  if (/\bcast\s*\(/i.test(out)) out = rewriteCasts(out);
  // ISNULL(x) is MySQL's function; SQLite reads ISNULL as its postfix operator (x ISNULL)
  if (/\bisnull\s*\(/i.test(out)) out = rewriteCalls(out, /isnull/, (text) => `((${text}) IS NULL)`);
  if (/\bgroup_concat\s*\(/i.test(out)) out = rewriteGroupConcat(out);
  out = rewriteMySqlOperators(out);
  const mode = sqlModeEffects(String(variables.sql_mode ?? DEFAULT_SQL_MODE));
  out = rewriteArithmetic(out, columns, mode.strict, mode.divisionByZero);
  out = rewriteDateCalls(out);
  if (/\b(?:substr(?:ing)?|position|trim)\s*\(/i.test(out)) out = rewriteKeywordCalls(out);
  // INSERT(…) past the statement's first word is the string function
  if (/\binsert\s*\(/i.test(out)) out = replaceOutsideQuotes(out, /(?<!^\s*)\binsert(?=\s*\()/gi, () => 'loupe_insert');
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
 * The standard's keyword forms as plain calls: SUBSTRING(s FROM p [FOR n]) (and SUBSTR), as MySQL
 * counts positions; POSITION(sub IN s) as LOCATE; TRIM([BOTH|LEADING|TRAILING] [remove] FROM s),
 * which removes whole repeats of `remove`, where SQLite's trim removes any of its characters.
 */
function rewriteKeywordCalls(sql: string): string {
  let out = rewriteCalls(sql, /substring|substr/, (text, top) => {
    const from = /\sfrom\s/i.exec(top);
    if (!from) return undefined;
    const rest = from.index + from[0].length;
    const forAt = /\sfor\s/i.exec(top.slice(rest));
    if (!forAt) return `mid(${text.slice(0, from.index)}, ${text.slice(rest)})`;
    return `mid(${text.slice(0, from.index)}, ${text.slice(rest, rest + forAt.index)}, ${text.slice(rest + forAt.index + forAt[0].length)})`;
  });
  out = rewriteCalls(out, /position/, (text, top) => {
    const inAt = /\sin\s/i.exec(top);
    return inAt ? `locate(${text.slice(0, inAt.index)}, ${text.slice(inAt.index + inAt[0].length)})` : undefined;
  });
  return rewriteCalls(out, /trim/, (text, top) => {
    const mode = /^\s*(both|leading|trailing)\b/i.exec(top);
    const from = /(?:^|\s)from\s/i.exec(top);
    if (!from) return undefined;
    const start = mode ? mode[0].length : 0;
    const remove = text.slice(start, from.index).trim() || "' '";
    return `loupe_trim('${(mode?.[1] ?? 'both').toLowerCase()}', ${remove}, ${text.slice(from.index + from[0].length)})`;
  });
}

/**
 * Each call `name(…)` outside quotes rewritten: `fn` gets the arguments' text, and the same text
 * with quotes blanked and nested parentheses blanked (its top level), and returns the call's
 * new text, or undefined to leave it.
 */
function rewriteCalls(sql: string, name: RegExp, fn: (text: string, top: string) => string | undefined): string {
  const masked = maskQuoted(sql);
  const re = new RegExp(`\\b(?:${name.source})\\s*\\(`, 'gi');
  let out = '';
  let last = 0;
  for (let m = re.exec(masked); m; m = re.exec(masked)) {
    const open = m.index + m[0].length - 1;
    const close = closingParen(masked, open);
    if (close < 0) break;
    const replacement = fn(sql.slice(open + 1, close), topLevel(masked.slice(open + 1, close)));
    if (replacement === undefined) continue;
    out += sql.slice(last, m.index) + replacement;
    last = close + 1;
    re.lastIndex = close + 1;
  }
  return out + sql.slice(last);
}

/**
 * CAST(x AS DATE|DATETIME|TIME) as SQLite's date functions, CAST(x AS SIGNED|UNSIGNED) and
 * CAST(x AS DECIMAL(M,D)) as MySQL converts (numbers rounded, text read up to its first
 * non-digit); other types as they are.
 */
function rewriteCasts(sql: string): string {
  return rewriteCalls(sql, /cast/, (text, top) => {
    const as = [...top.matchAll(/\sas\s/gi)].pop();
    if (!as) return undefined;
    const type = top.slice(as.index! + as[0].length).trim().toLowerCase();
    const expr = rewriteCasts(text.slice(0, as.index));
    if (type === 'date' || type === 'datetime' || type === 'time') return `${type}(${expr})`;
    // SQLite reads BINARY as a numeric type name ('x' would be 0): the value's bytes, padded or cut to n
    const binary = /^binary(?:\s*\(\s*(\d+)\s*\))?$/.exec(text.slice(as.index! + as[0].length).trim().toLowerCase());
    if (binary) return binary[1] === undefined ? `loupe_cast_binary(${expr})` : `loupe_cast_binary(${expr}, ${binary[1]})`;
    // DECIMAL is DECIMAL(10,0), DECIMAL(M) DECIMAL(M,0); the warning names the CAST as written
    const decimal = /^decimal(?:\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?$/.exec(text.slice(as.index! + as[0].length).trim().toLowerCase());
    if (decimal) return `loupe_cast_decimal(${expr}, ${decimal[1] ?? 10}, ${decimal[2] ?? 0}, '${`CAST(${text})`.replace(/'/g, "''")}')`;
    if (/^(signed|unsigned)(\s+integer)?$/.test(type)) {
      // what the text shows of the operand: a string literal ('s') or a DECIMAL literal ('d')
      const literal = expr.trim();
      const hint = /^(?:_\w+\s*)?'(?:[^'\\]|\\.|'')*'$|^"(?:[^"\\]|\\.|"")*"$/s.test(literal) ? 's' : /^[-+]?(?:\d+\.\d*|\.\d+)$/.test(literal) ? 'd' : '';
      const cast = `loupe_cast_integer(${expr}, '${type.startsWith('u') ? 'u' : 's'}', '${hint}')`;
      // an INTEGER beyond 2^53 is its own SIGNED value (and UNSIGNED, when not negative): kept in
      // SQL, as loupe_cast_integer would get it as a double (exact-integers.ts)
      if (!isSimpleExpression(expr.trim())) return cast;
      return `(CASE WHEN ${beyondDouble(expr)}${type.startsWith('u') ? ` AND (${expr}) > 0` : ''} THEN (${expr}) ELSE ${cast} END)`;
    }
    return undefined;
  });
}

/**
 * GROUP_CONCAT([DISTINCT] e1[, e2…] [ORDER BY …] [SEPARATOR 's']) as SQLite's
 * group_concat(x, 's' ORDER BY …): several expressions are concatenated per row first, as MySQL
 * does. DISTINCT with a separator of its own has no SQLite form and is left as written.
 */
function rewriteGroupConcat(sql: string): string {
  return rewriteCalls(sql, /group_concat/, (text, top) => {
    const sep = /\sseparator\s+/i.exec(top);
    const orderAt = top.search(/\sorder\s+by\s/i);
    const sepAt = sep ? sep.index : -1;
    const exprEnd = Math.min(...[sepAt, orderAt, top.length].filter((i) => i >= 0));
    const distinct = /^\s*distinct\s/i.exec(top);
    const separator = sep ? text.slice(sep.index + sep[0].length).trim() : undefined;
    if (distinct && separator !== undefined && separator !== "','") return undefined;
    const exprStart = distinct ? distinct[0].length : 0;
    const commas = [...top.slice(exprStart, exprEnd).matchAll(/,/g)].map((c) => exprStart + c.index!);
    const exprs = [exprStart, ...commas.map((c) => c + 1)].map((from, i) => text.slice(from, i < commas.length ? commas[i] : exprEnd).trim());
    const value = exprs.length > 1 ? `concat(${exprs.join(', ')})` : exprs[0]!;
    const order = orderAt >= 0 ? ` ${text.slice(orderAt, sepAt > orderAt ? sepAt : top.length).trim()}` : '';
    return `group_concat(${distinct ? `DISTINCT ${value}` : `${value}, ${separator ?? "','"}`}${order})`;
  });
}
