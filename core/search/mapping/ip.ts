/**
 * IP addresses as an ip field stores them: IPv4 in dotted form, IPv6 normalised (lower case,
 * compressed). `ipv4ToNumber` gives the number used for ranges and CIDR masks.
 */
import net from 'node:net';

/** `dottedQuad`: not four groups of 1-3 digits. */
const NOT_QUAD = -1;
/** `dottedQuad` with `strict`: four groups, but one is over 255 or has a leading zero. */
const BAD_QUAD = -2;

/**
 * The value of `t` read as four dot-separated groups of 1-3 ASCII digits (/^(\d{1,3})\.(\d{1,3})\.
 * (\d{1,3})\.(\d{1,3})$/, without the regex and its match array: this runs once per indexed
 * address), NOT_QUAD when it is not one; with `strict`, BAD_QUAD when a group is over 255 or
 * has a leading zero.
 */
function dottedQuad(t: string, strict: boolean): number {
  const n = t.length;
  let value = 0;
  let i = 0;
  for (let group = 0; group < 4; group++) {
    if (group > 0) {
      if (i >= n || t.charCodeAt(i) !== 46) return NOT_QUAD;
      i++;
    }
    const start = i;
    let g = 0;
    while (i < n && i - start < 4) {
      const c = t.charCodeAt(i);
      if (c < 48 || c > 57) break;
      g = g * 10 + (c - 48);
      i++;
    }
    const len = i - start;
    if (len === 0 || len > 3) return NOT_QUAD;
    if (strict && (g > 255 || (len > 1 && t.charCodeAt(start) === 48))) {
      // the whole text must still be a quad for this to be BAD_QUAD rather than NOT_QUAD
      return dottedQuad(t, false) === NOT_QUAD ? NOT_QUAD : BAD_QUAD;
    }
    value = value * 256 + g;
  }
  return i === n ? value : NOT_QUAD;
}

export function parseIp(text: string): string | undefined {
  const t = text.trim();
  const v4 = dottedQuad(t, true);
  if (v4 === BAD_QUAD) return undefined;
  if (v4 !== NOT_QUAD) return t;
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
  const v = dottedQuad(ip, false);
  return v === NOT_QUAD ? undefined : v;
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
