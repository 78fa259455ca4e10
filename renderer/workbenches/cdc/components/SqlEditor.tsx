/**
 * The source console's SQL input: Monaco (the relevance workbench's bundled set-up, plus the
 * MySQL language), named "SQL", Ctrl/Cmd+Enter runs it, and a MySQL error that names a place
 * (`near '…' at line N`, an unknown table or column) is marked where it points.
 */
import { useEffect, useRef } from 'react';
import 'monaco-editor/languages/definitions/mysql/register';
import { monaco } from '../../relevance/editor/monaco.js';
import { useThemeMode } from '../../relevance/hooks.js';
import { useCdc } from '../store.js';
import { editorErrorSpot, useSqlEditor } from '../sql-editor-store.js';

const MODEL_URI = 'inmemory://loupe/cdc/source.sql';
const OWNER = 'mysql';

export function SqlEditor() {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const sql = useCdc((s) => s.sql);
  const run = useCdc((s) => s.sqlRun);
  const ran = useSqlEditor((s) => s.ran);
  const dark = useThemeMode() === 'dark';
  const errorLine = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const uri = monaco.Uri.parse(MODEL_URI);
    const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(useCdc.getState().sql, 'mysql', uri);
    const editor = monaco.editor.create(host.current, {
      model,
      ariaLabel: 'SQL',
      automaticLayout: true,
      minimap: { enabled: false },
      wordWrap: 'on',
      fontSize: 13,
      lineNumbersMinChars: 2,
      scrollBeyondLastLine: false,
      fixedOverflowWidgets: true,
      renderLineHighlight: 'none',
      overviewRulerLanes: 0,
      hideCursorInOverviewRuler: true,
      scrollbar: { alwaysConsumeMouseWheel: false },
      padding: { top: 6, bottom: 6 },
      tabSize: 2,
    });
    editorRef.current = editor;
    errorLine.current = editor.createDecorationsCollection();
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => void useSqlEditor.getState().run());
    const sub = model.onDidChangeContent(() => {
      monaco.editor.setModelMarkers(model, OWNER, []);
      errorLine.current?.clear();
      useCdc.getState().setSql(model.getValue());
    });
    return () => {
      sub.dispose();
      editor.dispose();
      editorRef.current = null;
    };
  }, []);

  // the store's text (a scenario, a test) wins over the model's
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model && model.getValue() !== sql) model.setValue(sql);
  }, [sql]);

  useEffect(() => {
    monaco.editor.setTheme(dark ? 'vs-dark' : 'vs');
  }, [dark]);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    const spot = run.phase === 'error' ? editorErrorSpot(ran, run.error, model.getValue()) : null;
    if (!spot || !run.error) {
      monaco.editor.setModelMarkers(model, OWNER, []);
      errorLine.current?.clear();
      return;
    }
    // the squiggle marks the spot; the tinted line makes it visible at a glance
    errorLine.current?.set([{ range: new monaco.Range(spot.line, 1, spot.line, 1), options: { isWholeLine: true, className: 'cdc-sql-error-line' } }]);
    monaco.editor.setModelMarkers(model, OWNER, [
      { severity: monaco.MarkerSeverity.Error, message: run.error.text, source: 'MySQL', startLineNumber: spot.line, startColumn: spot.startColumn, endLineNumber: spot.line, endColumn: spot.endColumn },
    ]);
    editorRef.current?.revealLineInCenterIfOutsideViewport(spot.line);
  }, [run, ran]);

  return <div ref={host} className="cdc-sql-editor" data-testid="sql-editor" />;
}
