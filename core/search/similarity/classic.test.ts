import { describe, expect, it } from 'vitest';
import { ClassicScorer, classicNorm, classicQueryNorm, classicCoord } from './classic.js';
import { javaFloatString } from './java-float.js';
import { f32 } from './java-float.js';

// Golden values from Lucene 4.10.4 (Debian liblucene4.10-java), DefaultSimilarity, StandardAnalyzer,
// five documents in field "message" (StandardAnalyzer drops English stop words, so doc 0 has 4 tokens, doc 4 has 12):
//   0 "User login failed for admin"   1 "login succeeded"
//   2 "GET /index.html returned 200 after login login"
//   3 "Disk quota exceeded on volume data"
//   4 "admin changed password after failed login attempt from remote host over ssh"
describe('classic TF/IDF scores equal Lucene 4.10 bit for bit', () => {
  it('a single-term query prints only fieldWeight (queryWeight is exactly 1)', () => {
    const login = new ClassicScorer(1, 4, 5);
    login.normalize(classicQueryNorm(login.valueForNormalization()), 1);
    expect(javaFloatString(login.score(1, classicNorm(2)))).toBe('0.625');
    expect(javaFloatString(login.score(2, classicNorm(7)))).toBe('0.53033006');
    expect(javaFloatString(login.score(1, classicNorm(4)))).toBe('0.5');
    expect(javaFloatString(login.score(1, classicNorm(12)))).toBe('0.25');
    const e = login.explain(2, 2, classicNorm(7));
    expect(e.description).toBe('fieldWeight in 2, product of:');
    expect(e.details.map((d) => `${javaFloatString(d.value)} = ${d.description}`)).toEqual([
      '1.4142135 = tf(freq=2.0), with freq of:',
      '1.0 = idf(docFreq=4, maxDocs=5)',
      '0.375 = fieldNorm(doc=2)',
    ]);
    expect(e.details[0]!.details[0]!.description).toBe('termFreq=2.0');
  });

  it('two terms share one queryNorm and coord scales a partial match', () => {
    const login = new ClassicScorer(1, 4, 5);
    const admin = new ClassicScorer(1, 2, 5);
    const queryNorm = classicQueryNorm(f32(login.valueForNormalization() + admin.valueForNormalization()));
    expect(javaFloatString(queryNorm)).toBe('0.5519394');
    login.normalize(queryNorm, 1);
    admin.normalize(queryNorm, 1);
    expect(javaFloatString(login.score(1, classicNorm(4)))).toBe('0.2759697');
    expect(javaFloatString(admin.score(1, classicNorm(4)))).toBe('0.62992686');
    const e = admin.explain(0, 1, classicNorm(4));
    expect(e.description).toBe('score(doc=0,freq=1.0), product of:');
    expect(e.details.map((d) => `${javaFloatString(d.value)} = ${d.description}`)).toEqual([
      '0.83388424 = queryWeight, product of:',
      '0.7554128 = fieldWeight in 0, product of:',
    ]);
    expect(javaFloatString(e.details[0]!.details[0]!.value)).toBe('1.5108256');
    // doc 1 matches one of two clauses: 0.34496215 × coord(1/2) = 0.17248107
    expect(javaFloatString(login.score(1, classicNorm(2)))).toBe('0.34496215');
    expect(javaFloatString(f32(login.score(1, classicNorm(2)) * classicCoord(1, 2)))).toBe('0.17248107');
  });

  it('a boosted term shows its boost inside queryWeight', () => {
    const failed = new ClassicScorer(2, 2, 5);
    const login = new ClassicScorer(1, 4, 5);
    const queryNorm = classicQueryNorm(f32(failed.valueForNormalization() + login.valueForNormalization()));
    expect(javaFloatString(queryNorm)).toBe('0.31418628');
    failed.normalize(queryNorm, 1);
    const e = failed.explain(4, 1, classicNorm(12));
    expect(javaFloatString(e.value)).toBe('0.35857987');
    expect(e.details[0]!.details.map((d) => `${javaFloatString(d.value)} = ${d.description}`)).toEqual([
      '2.0 = boost',
      '1.5108256 = idf(docFreq=2, maxDocs=5)',
      '0.31418628 = queryNorm',
    ]);
  });
});
