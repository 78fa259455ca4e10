/**
 * ClickHouse's error as a value: the code, the upper-case name and the message, rendered the
 * way the server writes it (`Code: 60. DB::Exception: … (UNKNOWN_TABLE) (version 26.7.2.1)`),
 * plus the HTTP status the server's HTTP handler maps the code to.
 */
export class ClickHouseError extends Error {
  constructor(
    readonly code: number,
    override readonly name: string,
    /** The text between `DB::Exception: ` and ` (NAME)`. */
    readonly detail: string,
    /** The exception class the server names, e.g. `ErrnoException` for a file that cannot be read. */
    readonly exceptionClass = 'Exception',
  ) {
    super(`Code: ${code}. DB::${exceptionClass}: ${detail}. (${name})`);
  }

  /** The body line a server sends: the message with the server version appended. */
  render(version: string): string {
    return `Code: ${this.code}. DB::${this.exceptionClass}: ${stripDot(this.detail)}. (${this.name}) (version ${version})\n`;
  }

  get httpStatus(): number {
    return httpStatusFor(this.name);
  }
}

function stripDot(s: string): string {
  return s.endsWith('.') ? s.slice(0, -1) : s;
}

const MESSAGE = /^Code: (\d+)\. DB::(\w*Exception): ([\s\S]*?)\.? \(([A-Z0-9_]+)\)\s*(\(version [^)]*\))?\s*$/;

/** Turns whatever chDB threw into a ClickHouseError; unparseable text stays visible as code 1001. */
export function toClickHouseError(err: unknown): ClickHouseError {
  if (err instanceof ClickHouseError) return err;
  const message = err instanceof Error ? err.message : String(err);
  let m = MESSAGE.exec(message.trim());
  if (m) {
    // chDB wraps some exceptions in themselves on the way out (`Code: 73. DB::Exception: Code: 73.
    // DB::Exception: Unknown format Nope. … (UNKNOWN_FORMAT) (version …). (UNKNOWN_FORMAT)`, three
    // deep for FORMAT Nope; `Code: 400. DB::Exception: Code: 400. DB::ErrnoException: Cannot stat
    // file …`); a server sends the innermost exception once
    for (let inner = MESSAGE.exec(m[3]!); inner && inner[1] === m[1]; inner = MESSAGE.exec(m[3]!)) m = inner;
    return new ClickHouseError(Number(m[1]), m[4]!, m[3]!, m[2]!);
  }
  const code = (err as { clickhouseCode?: number })?.clickhouseCode;
  return new ClickHouseError(code ?? 1001, code ? 'UNKNOWN_EXCEPTION' : 'STD_EXCEPTION', message.replace(/^Query failed: /, ''));
}

/** Mirrors ClickHouse's src/Server/HTTP/exceptionCodeToHTTPStatus.cpp, keyed by error name. */
const STATUS_BY_NAME: Record<string, number> = {};
const assign = (status: number, names: string) => names.split(/\s+/).filter(Boolean).forEach((n) => (STATUS_BY_NAME[n] = status));
assign(401, 'REQUIRED_PASSWORD');
assign(403, 'UNKNOWN_USER WRONG_PASSWORD AUTHENTICATION_FAILED SET_NON_GRANTED_ROLE ACCESS_DENIED');
assign(
  400,
  `BAD_ARGUMENTS CANNOT_COMPILE_REGEXP CANNOT_PARSE_TEXT CANNOT_PARSE_ESCAPE_SEQUENCE CANNOT_PARSE_QUOTED_STRING
   CANNOT_PARSE_DATE CANNOT_PARSE_DATETIME CANNOT_PARSE_NUMBER CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING CANNOT_PARSE_IPV4
   CANNOT_PARSE_IPV6 CANNOT_PARSE_INPUT_ASSERTION_FAILED CANNOT_PARSE_UUID DUPLICATE_COLUMN ILLEGAL_COLUMN
   UNKNOWN_ELEMENT_IN_AST UNKNOWN_TYPE_OF_AST_NODE THERE_IS_NO_COLUMN TOO_DEEP_AST TOO_BIG_AST UNEXPECTED_AST_STRUCTURE
   SYNTAX_ERROR INCORRECT_DATA TYPE_MISMATCH VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE`,
);
assign(
  404,
  `UNKNOWN_TABLE UNKNOWN_FUNCTION UNKNOWN_IDENTIFIER UNKNOWN_TYPE UNKNOWN_STORAGE UNKNOWN_DATABASE UNKNOWN_SETTING
   UNKNOWN_DIRECTION_OF_SORTING UNKNOWN_AGGREGATE_FUNCTION UNKNOWN_FORMAT UNKNOWN_DATABASE_ENGINE UNKNOWN_TYPE_OF_QUERY
   UNKNOWN_ROLE`,
);
assign(413, 'QUERY_IS_TOO_LARGE');
assign(501, 'NOT_IMPLEMENTED');
assign(503, 'SOCKET_TIMEOUT CANNOT_OPEN_FILE CANNOT_SCHEDULE_TASK');
assign(411, 'HTTP_LENGTH_REQUIRED');
assign(408, 'TIMEOUT_EXCEEDED');
assign(415, 'UNSUPPORTED_MEDIA_TYPE');

export function httpStatusFor(name: string): number {
  return STATUS_BY_NAME[name] ?? 500;
}

/** Errors Loupe raises itself, with the codes ClickHouse uses for the same situation. */
export const chErrors = {
  syntax: (detail: string) => new ClickHouseError(62, 'SYNTAX_ERROR', detail),
  readonly: () => new ClickHouseError(164, 'READONLY', 'Cannot execute query in readonly mode. For queries over HTTP, method GET implies readonly. You should use method POST for modifying queries'),
  emptyQuery: () => new ClickHouseError(62, 'SYNTAX_ERROR', 'Empty query'),
  authFailed: (user: string) =>
    new ClickHouseError(516, 'AUTHENTICATION_FAILED', `${user}: Authentication failed: password is incorrect, or there is no user with such name`),
  keeper: (what: string) =>
    new ClickHouseError(
      999,
      'KEEPER_EXCEPTION',
      `${what} needs ClickHouse Keeper (ZooKeeper), and embedded ClickHouse is a single chDB node without one. Point Loupe at a ClickHouse server or cluster for this`,
    ),
};
