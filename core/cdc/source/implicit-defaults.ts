/**
 * A column's implicit default (MySQL 8.0 manual, Data Type Default Values): what MySQL stores in a
 * NOT NULL column given NULL under INSERT/UPDATE … IGNORE or outside strict mode (warning 1048),
 * or left out without a DEFAULT (warning 1364). Zero for numbers, the empty string for strings
 * and SET, an ENUM's first member (as MariaDB stores it), n zero bytes for BINARY(n), 00:00:00 for
 * TIME and the zero date for DATE, DATETIME and TIMESTAMP (whatever NO_ZERO_DATE says: the value
 * is not checked). Undefined for JSON and spatial columns: such a NULL stays one, and the row
 * fails its NOT NULL.
 */
import type { SqlValue } from 'sql.js';
import { zeroDate, type StoreKind } from './column-values.js';

export function implicitDefault(k: StoreKind): SqlValue | undefined {
  switch (k.kind) {
    case 'int':
    case 'bit':
    case 'year':
    case 'real':
      return 0;
    case 'decimal':
      return k.scale > 0 ? `0.${'0'.repeat(k.scale)}` : '0';
    case 'enum':
      return k.members[0] ?? '';
    case 'text':
    case 'set':
      return '';
    case 'binary':
      return new Uint8Array(k.pad ? k.max : 0);
    case 'time':
      return `00:00:00${k.fsp ? `.${'0'.repeat(k.fsp)}` : ''}`;
    case 'date':
    case 'datetime':
    case 'timestamp':
      return zeroDate(k);
    default:
      return undefined;
  }
}
