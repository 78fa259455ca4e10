/**
 * The session's sql_mode, as MySQL 8.0 reads and shows it (sys_vars.cc: sql_mode_names,
 * expand_sql_mode, check_sql_mode). What the embedded source follows of it: strict mode
 * (STRICT_TRANS_TABLES or STRICT_ALL_TABLES, the same for InnoDB), and NO_AUTO_VALUE_ON_ZERO.
 * Modes that change how a statement is read or computed (ANSI_QUOTES, PIPES_AS_CONCAT,
 * NO_BACKSLASH_ESCAPES…) are refused with 1235 rather than set and not followed.
 * ERROR_FOR_DIVISION_BY_ZERO is followed (arithmetic-rewrite.ts: without it a division by zero is
 * NULL without a warning, in a write too), and so are NO_ZERO_DATE and NO_ZERO_IN_DATE
 * (column-values.ts: without them a DATE or DATETIME stores '0000-00-00' and '2024-00-05', as a
 * mysqldump file's `SET SQL_MODE='NO_AUTO_VALUE_ON_ZERO'` lets it).
 */
import { MySqlError, mysqlErrors } from './mysql-error.js';

/**
 * MySQL 8.0's modes in the order @@sql_mode lists them, at their bit in the numeric form (the
 * NOT_USED slots of sql_mode_names have no name).
 */
const BIT_NAMES: (string | undefined)[] = [];
for (const [first, names] of [
  [0, ['REAL_AS_FLOAT', 'PIPES_AS_CONCAT', 'ANSI_QUOTES', 'IGNORE_SPACE']],
  [5, ['ONLY_FULL_GROUP_BY', 'NO_UNSIGNED_SUBTRACTION', 'NO_DIR_IN_CREATE']],
  [18, ['ANSI', 'NO_AUTO_VALUE_ON_ZERO', 'NO_BACKSLASH_ESCAPES', 'STRICT_TRANS_TABLES', 'STRICT_ALL_TABLES', 'NO_ZERO_IN_DATE', 'NO_ZERO_DATE', 'ALLOW_INVALID_DATES', 'ERROR_FOR_DIVISION_BY_ZERO', 'TRADITIONAL']],
  [29, ['HIGH_NOT_PRECEDENCE', 'NO_ENGINE_SUBSTITUTION', 'PAD_CHAR_TO_FULL_LENGTH', 'TIME_TRUNCATE_FRACTIONAL']],
] as const) {
  names.forEach((n, i) => (BIT_NAMES[first + i] = n));
}
const NAMES = BIT_NAMES.filter((n): n is string => n !== undefined);

/** The combination modes and what each also sets (expand_sql_mode). */
const COMBINATIONS: Record<string, string[]> = {
  ANSI: ['REAL_AS_FLOAT', 'PIPES_AS_CONCAT', 'ANSI_QUOTES', 'IGNORE_SPACE', 'ONLY_FULL_GROUP_BY'],
  TRADITIONAL: ['STRICT_TRANS_TABLES', 'STRICT_ALL_TABLES', 'NO_ZERO_IN_DATE', 'NO_ZERO_DATE', 'ERROR_FOR_DIVISION_BY_ZERO', 'NO_ENGINE_SUBSTITUTION'],
};

/** Modes the embedded source does not follow: each changes how statements are read or what they compute. */
const NOT_FOLLOWED = new Set(['REAL_AS_FLOAT', 'PIPES_AS_CONCAT', 'ANSI_QUOTES', 'NO_UNSIGNED_SUBTRACTION', 'NO_BACKSLASH_ESCAPES', 'ALLOW_INVALID_DATES', 'HIGH_NOT_PRECEDENCE', 'PAD_CHAR_TO_FULL_LENGTH', 'TIME_TRUNCATE_FRACTIONAL']);

const STRICT_PARTS = ['NO_ZERO_IN_DATE', 'NO_ZERO_DATE', 'ERROR_FOR_DIVISION_BY_ZERO'];

/** MySQL 8.0's default. */
export const DEFAULT_SQL_MODE = 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION';

/** ER_SQL_MODE_MERGED: some but not all of strict mode and its three companions (WL#8596). */
export const SQL_MODE_MERGED = { code: 3135, message: "'NO_ZERO_DATE', 'NO_ZERO_IN_DATE' and 'ERROR_FOR_DIVISION_BY_ZERO' sql modes should be used with strict mode. They will be merged with strict mode in a future release." };

export interface SqlModeSet {
  /** The value as @@sql_mode shows it. */
  value: string;
  /** Warning 3135 goes with it. */
  mergedWarning: boolean;
}

/**
 * A value for sql_mode: names separated by commas in any case (or the numeric bit set), with the
 * combination modes expanded, in MySQL's order. 1231 for a name MySQL 8.0 does not have.
 */
export function parseSqlMode(value: string | number | bigint | null): SqlModeSet {
  const wrong = (shown: string) => new MySqlError(1231, '42000', `Variable 'sql_mode' can't be set to the value of '${shown}'`);
  if (value === null) throw wrong('NULL');
  const set = new Set<string>();
  if (typeof value !== 'string') {
    let bits = BigInt(value);
    if (bits < 0n) throw wrong(String(value));
    for (let i = 0; bits > 0n; i++, bits >>= 1n) {
      if (!(bits & 1n)) continue;
      const name = BIT_NAMES[i];
      if (!name) throw wrong(String(value));
      set.add(name);
    }
  } else {
    for (const part of value.split(',')) {
      if (part === '') continue;
      const name = part.toUpperCase();
      if (!NAMES.includes(name)) throw wrong(part);
      set.add(name);
    }
  }
  for (const [combination, parts] of Object.entries(COMBINATIONS)) if (set.has(combination)) for (const p of parts) set.add(p);
  const refused = [...set].find((m) => NOT_FOLLOWED.has(m));
  if (refused) throw mysqlErrors.notSupported(`sql_mode ${refused} in the embedded source`);
  const strict = isStrict(set);
  const used = [strict, ...STRICT_PARTS.map((m) => set.has(m))].filter(Boolean).length;
  return { value: NAMES.filter((n) => set.has(n)).join(','), mergedWarning: used > 0 && used < 4 };
}

const isStrict = (set: Set<string>) => set.has('STRICT_TRANS_TABLES') || set.has('STRICT_ALL_TABLES');

export interface SqlModeEffects {
  strict: boolean;
  zeroGeneratesId: boolean;
  /** ERROR_FOR_DIVISION_BY_ZERO: a division by zero warns (or, in a strict write, fails). */
  divisionByZero: boolean;
  /** NO_ZERO_DATE: '0000-00-00' is refused in strict mode, stored with a warning outside it. */
  noZeroDate: boolean;
  /** NO_ZERO_IN_DATE: a date with a zero month or day ('2024-00-05') is refused in strict mode, the zero date outside it. */
  noZeroInDate: boolean;
}

/** The effects of each sql_mode value met: every statement asks, and a session keeps one value. */
const effectsOf = new Map<string, SqlModeEffects>();

/** What a statement follows of a sql_mode value. */
export function sqlModeEffects(value: string): SqlModeEffects {
  let e = effectsOf.get(value);
  if (!e) {
    const set = new Set(value.split(','));
    e = { strict: isStrict(set), zeroGeneratesId: !set.has('NO_AUTO_VALUE_ON_ZERO'), divisionByZero: set.has('ERROR_FOR_DIVISION_BY_ZERO'), noZeroDate: set.has('NO_ZERO_DATE'), noZeroInDate: set.has('NO_ZERO_IN_DATE') };
    effectsOf.set(value, e);
  }
  return e;
}
