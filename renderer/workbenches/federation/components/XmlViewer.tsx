/**
 * The decoded SAMLResponse in a read-only Monaco editor, with XML colouring, folding by element
 * and find (Ctrl/Cmd+F), with its icon font. Only the editor core and these features are bundled (no CDN, no
 * other languages); the page loads this file lazily, when the XML is first shown.
 */
import { useEffect, useRef } from 'react';
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/languages/definitions/xml/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

declare global {
  interface Window {
    MonacoEnvironment?: monaco.Environment;
  }
}

window.MonacoEnvironment ??= { getWorker: () => new EditorWorker() };

function themeOf(): 'vs' | 'vs-dark' {
  const t = document.documentElement.dataset.theme;
  const dark = t === 'dark' || (t !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  return dark ? 'vs-dark' : 'vs';
}

function createEditor(el: HTMLDivElement, value: string, label: string, editor: { current: monaco.editor.IStandaloneCodeEditor | null }): () => void {
  const e = monaco.editor.create(el, {
    value,
    language: 'xml',
    readOnly: true,
    domReadOnly: true,
    theme: themeOf(),
    automaticLayout: true,
    minimap: { enabled: false },
    folding: true,
    showFoldingControls: 'always',
    foldingStrategy: 'indentation',
    wordWrap: 'on',
    wrappingIndent: 'indent',
    scrollBeyondLastLine: false,
    fontSize: 12,
    lineNumbersMinChars: 3,
    renderLineHighlight: 'none',
    ariaLabel: label,
  });
  editor.current = e;
  // Follows the app's theme (the setting or the OS preference).
  const observer = new MutationObserver(() => monaco.editor.setTheme(themeOf()));
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const media = window.matchMedia('(prefers-color-scheme: dark)');
  const onMedia = () => monaco.editor.setTheme(themeOf());
  media.addEventListener('change', onMedia);
  return () => {
    observer.disconnect();
    media.removeEventListener('change', onMedia);
    e.getModel()?.dispose();
    e.dispose();
    editor.current = null;
  };
}

export default function XmlViewer({ xml, label }: { xml: string; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const latest = useRef(xml);
  useEffect(() => {
    latest.current = xml;
  });

  useEffect(() => {
    if (!host.current) return;
    const el = host.current;
    let disposed = false;
    let dispose = () => {};
    // Created after the assertion and the role choice have painted, so building the editor never
    // holds up a click on Get credentials.
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1));
    idle(() => {
      if (!disposed) dispose = createEditor(el, latest.current, label, editor);
    });
    return () => {
      disposed = true;
      dispose();
    };
    // The editor is created once; later XML goes through setValue below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (editor.current && editor.current.getValue() !== xml) editor.current.setValue(xml);
  }, [xml]);

  return <div ref={host} className="fed-xml" data-testid="saml-xml" />;
}
