/**
 * The source console's SQL input: Monaco (the relevance workbench's bundled set-up, plus the
 * MySQL language), named "SQL", Ctrl/Cmd+Enter runs it, and a MySQL error that names a place
 * (`near '…' at line N`, an unknown table or column) is marked where it points.
 */
import { useEffect, useRef } from 'react';
import 'monaco-editor/languages/definitions/mysql/register';
import { monaco } from '../../../components/editor/monaco.js';
import { useBoundEditor } from '../../../components/editor/use-bound-editor.js';
import { useCdc } from '../store.js';
import { editorErrorSpot, useSqlEditor } from '../sql-editor-store.js';

const MODEL_URI = 'inmemory://loupe/cdc/source.sql';
const OWNER = 'mysql';

export function SqlEditor() {
  const host = useRef<HTMLDivElement>(null);
  const sql = useCdc((s) => s.sql);
  const run = useCdc((s) => s.sqlRun);
  const ran = useSqlEditor((s) => s.ran);
  const errorLine = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  // the store's text (a scenario, a test) wins over the model's
  const editorRef = useBoundEditor(host, {
    uri: MODEL_URI,
    language: 'mysql',
    text: sql,
    options: {
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
    },
    onChange(text, model) {
      monaco.editor.setModelMarkers(model, OWNER, []);
      errorLine.current?.clear();
      useCdc.getState().setSql(text);
    },
    onRun: () => void useSqlEditor.getState().run(),
  });

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    errorLine.current ??= editorRef.current!.createDecorationsCollection();
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
  }, [run, ran, editorRef]);

  return <div ref={host} className="cdc-sql-editor" data-testid="sql-editor" />;
}
