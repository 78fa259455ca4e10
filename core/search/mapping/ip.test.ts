import { describe, expect, it } from 'vitest';
import { ipv4ToNumber, parseIp } from './ip.js';

/** The regex-based definitions these functions had, as the reference. */
const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
function refNumber(ip: string): number | undefined {
  const m = V4.exec(ip);
  return m ? ((Number(m[1]) * 256 + Number(m[2])) * 256 + Number(m[3])) * 256 + Number(m[4]) : undefined;
}
function refStrictV4(t: string): 'bad' | 'ok' | 'none' {
  const m = V4.exec(t);
  if (!m) return 'none';
  for (let i = 1; i <= 4; i++) if (Number(m[i]) > 255 || (m[i]!.length > 1 && m[i]![0] === '0')) return 'bad';
  return 'ok';
}

describe('IPv4 addresses', () => {
  it('read as the dotted-quad pattern did, on valid, odd and malformed text', () => {
    let seed = 3;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    const pieces = ['0', '1', '10', '255', '256', '999', '01', '007', '1234', '', '.', 'a', ' ', ':'];
    const cases = ['10.0.0.1', '255.255.255.255', '1.2.3', '1.2.3.4.', '1..2.3', '01.2.3.4', '300.1.1.1', ' 1.2.3.4'];
    for (let k = 0; k < 3000; k++) {
      const n = 1 + Math.floor(rand() * 5);
      cases.push(Array.from({ length: n }, () => pieces[Math.floor(rand() * pieces.length)]).join(rand() < 0.9 ? '.' : ''));
    }
    for (const c of cases) {
      expect(ipv4ToNumber(c), c).toBe(refNumber(c));
      const ref = refStrictV4(c.trim());
      if (ref === 'ok') expect(parseIp(c), c).toBe(c.trim());
      if (ref === 'bad') expect(parseIp(c), c).toBeUndefined();
    }
    expect(ipv4ToNumber('10.1.2.3')).toBe(167838211);
  });
});
