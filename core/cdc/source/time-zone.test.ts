/**
 * SET time_zone on the embedded source (time-zone.ts), as MariaDB 10.11 without time zone tables
 * answered the same statements (MySQL's default install has none loaded either); an offset other
 * than zero is refused (1235) where MySQL would shift NOW() and every TIMESTAMP by it.
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({ database: 'tz', setup: 'CREATE DATABASE tz' });

describe('SET time_zone', () => {
  it('takes SYSTEM and a zero offset, shown as +00:00, and GLOBAL for the sessions after', () => {
    expect(fresh.rows("SET time_zone = '+00:00'; SELECT @@time_zone")).toEqual([['+00:00']]);
    expect(fresh.rows("SET time_zone = '-0:00'; SELECT @@session.time_zone")).toEqual([['+00:00']]);
    expect(fresh.rows("SET GLOBAL time_zone = '+00:00'; SELECT @@time_zone, @@GLOBAL.time_zone")).toEqual([['SYSTEM', '+00:00']]);
    expect(fresh.rows('SELECT @@time_zone')).toEqual([['+00:00']]);
    // mysqldump's header and footer
    expect(fresh.rows("/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */; /*!40103 SET TIME_ZONE='+00:00' */; /*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */; SELECT @@time_zone")).toEqual([['+00:00']]);
  });

  it('refuses a zone it does not know (1298), as a server without time zone tables, and an offset it would not follow (1235)', () => {
    expect(fresh.errorOf("SET time_zone = 'Europe/Berlin'")).toBe("ERROR 1298 (HY000): Unknown or incorrect time zone: 'Europe/Berlin'");
    expect(fresh.errorOf("SET time_zone = 'UTC'")).toBe("ERROR 1298 (HY000): Unknown or incorrect time zone: 'UTC'");
    expect(fresh.errorOf("SET time_zone = '+14:01'")).toBe("ERROR 1298 (HY000): Unknown or incorrect time zone: '+14:01'");
    expect(fresh.errorOf("SET time_zone = '+02:00'")).toBe("ERROR 1235 (42000): This version of MySQL doesn't yet support 'time_zone '+02:00' in the embedded source, which keeps UTC'");
  });
});
