/**
 * A small levelled logger. Secrets never reach the output: values under keys that look
 * secret are masked, and so are strings that look like tokens or assertions.
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

const SECRET_KEY = /pass(word)?|secret|token|assertion|samlresponse|authorization|credential|private/i;
const LONG_OPAQUE = /^[A-Za-z0-9+/=_.-]{40,}$/;

export function redact(value: unknown, key = ''): unknown {
  if (key && SECRET_KEY.test(key)) return value == null ? value : '[redacted]';
  if (typeof value === 'string') return LONG_OPAQUE.test(value) ? '[redacted]' : value;
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redact(v, k);
    return out;
  }
  return value;
}

export interface LoggerOptions {
  level?: Level;
  scope?: string;
  sink?: (line: string) => void;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const envLevel = process.env.LOUPE_LOG_LEVEL as Level | undefined;
  const min = ORDER[opts.level ?? (envLevel && envLevel in ORDER ? envLevel : 'info')];
  const sink = opts.sink ?? ((line: string) => process.stderr.write(line + '\n'));
  const scope = opts.scope ?? 'loupe';
  const write = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    const extra = fields ? ' ' + JSON.stringify(redact(fields)) : '';
    sink(`${new Date().toISOString()} ${level.padEnd(5)} [${scope}] ${msg}${extra}`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (s) => createLogger({ ...opts, level: opts.level ?? (Object.keys(ORDER).find((k) => ORDER[k as Level] === min) as Level), scope: `${scope}:${s}`, sink }),
  };
}

/** A logger that keeps lines in memory; for tests that check what was (not) logged. */
export function memoryLogger(lines: string[] = []): Logger & { lines: string[] } {
  const log = createLogger({ level: 'debug', sink: (l) => lines.push(l) });
  return Object.assign(log, { lines });
}

export const silentLogger: Logger = createLogger({ level: 'error', sink: () => {} });
