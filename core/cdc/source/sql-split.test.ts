import { describe, expect, it } from 'vitest';
import { splitStatements } from './sql-split.js';

describe('splitting a script as the mysql client and server read it', () => {
  it('splits at top-level semicolons, skipping comments and keeping quoted semicolons', () => {
    expect(splitStatements("SELECT 'a;b'; -- x;\n# y;\nSELECT `c;d` /* ; */ FROM t;;")).toEqual(["SELECT 'a;b'", 'SELECT `c;d`   FROM t']);
  });

  it('reads executable comments for this server version (8.0.36) and drops those for later ones and hints', () => {
    expect(splitStatements('/*!40014 SET FOREIGN_KEY_CHECKS=0 */;\n/*!80036 SET a=1 */; /*!80037 SET b=2 */; /*! SET c=3 */;')).toEqual(['SET FOREIGN_KEY_CHECKS=0', 'SET a=1', 'SET c=3']);
    expect(splitStatements("CREATE TABLE g (p POINT NOT NULL /*!80003 SRID 4326 */, s VARCHAR(9) DEFAULT '/*!1 x*/') /*!50100 ENGINE=InnoDB */; SELECT /*+ MAX_EXECUTION_TIME(1) */ 1")).toEqual([
      "CREATE TABLE g (p POINT NOT NULL   SRID 4326  , s VARCHAR(9) DEFAULT '/*!1 x*/')   ENGINE=InnoDB",
      'SELECT   1',
    ]);
  });
});
