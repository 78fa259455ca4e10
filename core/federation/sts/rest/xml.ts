/** STS Query API answers: the exact XML shapes AWS returns (namespace 2011-06-15). */
import type { StsError } from '../errors.js';

export const STS_NS = 'https://sts.amazonaws.com/doc/2011-06-15/';

/** Element text needs only &, < and > escaped; AWS leaves quotes as they are. */
const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

type Tree = { [k: string]: string | Tree };

function render(t: Tree, indent: string): string {
  return Object.entries(t)
    .map(([k, v]) => (typeof v === 'string' ? `${indent}<${k}>${escapeXml(v)}</${k}>\n` : `${indent}<${k}>\n${render(v, indent + '  ')}${indent}</${k}>\n`))
    .join('');
}

export function successXml(action: string, result: Tree, requestId: string): string {
  return (
    `<${action}Response xmlns="${STS_NS}">\n` +
    `  <${action}Result>\n${render(result, '    ')}  </${action}Result>\n` +
    `  <ResponseMetadata>\n    <RequestId>${escapeXml(requestId)}</RequestId>\n  </ResponseMetadata>\n` +
    `</${action}Response>\n`
  );
}

export function errorXml(err: StsError, requestId: string): string {
  return (
    `<ErrorResponse xmlns="${STS_NS}">\n` +
    `  <Error>\n    <Type>${err.type}</Type>\n    <Code>${escapeXml(err.code)}</Code>\n    <Message>${escapeXml(err.message)}</Message>\n  </Error>\n` +
    `  <RequestId>${escapeXml(requestId)}</RequestId>\n` +
    `</ErrorResponse>\n`
  );
}
