/**
 * The Relevance workbench's state in the page URL after `#`:
 * `#/relevance?index=mails&body=<request body>&hit=<id>&whynot=<id>&tab=why-not`.
 * A copied link or a reload opens the same view.
 */
export type DetailTab = 'explanation' | 'why-not' | 'compare' | 'similarity';
export const TABS: DetailTab[] = ['explanation', 'why-not', 'compare', 'similarity'];

export interface LinkState {
  index?: string;
  body?: string;
  hit?: string;
  whyNot?: string;
  tab?: DetailTab;
  compareB?: string;
}

export function readLink(hash: string): LinkState {
  const q = hash.indexOf('?');
  if (!/^#\/?relevance/.test(hash) || q < 0) return {};
  const p = new URLSearchParams(hash.slice(q + 1));
  const out: LinkState = {};
  const index = p.get('index');
  if (index) out.index = index;
  const body = p.get('body');
  if (body) out.body = body;
  const hit = p.get('hit');
  if (hit) out.hit = hit;
  const whyNot = p.get('whynot');
  if (whyNot) out.whyNot = whyNot;
  const tab = p.get('tab');
  if (tab && (TABS as string[]).includes(tab)) out.tab = tab as DetailTab;
  const b = p.get('b');
  if (b) out.compareB = b;
  return out;
}

export function writeLink(s: LinkState): string {
  const p = new URLSearchParams();
  if (s.index) p.set('index', s.index);
  if (s.body) p.set('body', s.body);
  if (s.hit) p.set('hit', s.hit);
  if (s.whyNot) p.set('whynot', s.whyNot);
  if (s.tab && s.tab !== 'explanation') p.set('tab', s.tab);
  if (s.compareB) p.set('b', s.compareB);
  const q = p.toString();
  return q ? `#/relevance?${q}` : '#/relevance';
}
