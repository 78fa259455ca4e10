/**
 * IP addresses as an ip field stores them: IPv4 in dotted form, IPv6 normalised (lower case,
 * compressed). `ipv4ToNumber` gives the number used for ranges and CIDR masks.
 */
import net from 'node:net';

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

export function parseIp(text: string): string | undefined {
  const t = text.trim();
  const v4 = V4.exec(t);
  if (v4) {
    for (let i = 1; i <= 4; i++) if (Number(v4[i]) > 255 || (v4[i]!.length > 1 && v4[i]![0] === '0')) return undefined;
    return t;
  }
  const kind = net.isIP(t);
  if (kind === 4) return t.split('.').map((p) => String(Number(p))).join('.');
  if (kind === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(t);
    if (mapped) return mapped[1];
    return normaliseV6(t);
  }
  return undefined;
}

function normaliseV6(t: string): string {
  const [head, tail] = t.toLowerCase().split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const tl = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - tl.length).fill('0'), ...tl];
  const parts = groups.map((g) => parseInt(g, 16).toString(16));
  // compress the longest run of zeros
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (parts[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && parts[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return parts.join(':');
  return parts.slice(0, best).join(':') + '::' + parts.slice(best + bestLen).join(':');
}

export function ipv4ToNumber(ip: string): number | undefined {
  const m = V4.exec(ip);
  if (!m) return undefined;
  return ((Number(m[1]) * 256 + Number(m[2])) * 256 + Number(m[3])) * 256 + Number(m[4]);
}

/** The inclusive numeric range of an IPv4 CIDR block such as 10.0.0.0/8. */
export function cidrRange(cidr: string): [number, number] | undefined {
  const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d{1,2})$/.exec(cidr.trim());
  if (!m) return undefined;
  const base = ipv4ToNumber(m[1]!);
  const bits = Number(m[2]);
  if (base === undefined || bits > 32) return undefined;
  const size = 2 ** (32 - bits);
  const start = Math.floor(base / size) * size;
  return [start, start + size - 1];
}
