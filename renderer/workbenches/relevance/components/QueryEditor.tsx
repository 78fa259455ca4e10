/**
 * The request body editor: Monaco with the query DSL's JSON schema (clauses, options, the
 * index's field names, hover help, squiggles), Ctrl/Cmd+Enter to run, and Elasticsearch's
 * parsing errors marked at their line and column.
 */
import { useEffect, useRef } from 'react';
import { jsonDefaults, monaco } from '../../../components/editor/monaco.js';
import { useBoundEditor } from '../../../components/editor/use-bound-editor.js';
import { querySchema } from '../lib/query-schema.js';
import { useRelevance } from '../store.js';

const MODEL_URI = 'inmemory://loupe/relevance/request.json';

export function QueryEditor() {
  const host = useRef<HTMLDivElement>(null);
  const bodyText = useRelevance((s) => s.bodyText);
  const fields = useRelevance((s) => s.indices?.find((i) => i.name === s.index)?.fields);
  const error = useRelevance((s) => s.queryError);
  // the store's text (a template, history, paging, a deep link) wins over the model's
  const editorRef = useBoundEditor(host, {
    uri: MODEL_URI,
    language: 'json',
    text: bodyText,
    options: {
      ariaLabel: 'Query',
      automaticLayout: true,
      minimap: { enabled: false },
      wordWrap: 'on',
      fontSize: 13,
      lineNumbersMinChars: 3,
      scrollBeyondLastLine: false,
      tabSize: 2,
      fixedOverflowWidgets: true,
      renderLineHighlight: 'line',
      padding: { top: 8 },
    },
    onChange(text, model) {
      monaco.editor.setModelMarkers(model, 'elasticsearch', []);
      useRelevance.getState().setBody(text);
    },
    onRun: () => void useRelevance.getState().run(),
  });

  useEffect(() => {
    jsonDefaults.setDiagnosticsOptions({
      validate: true,
      allowComments: false,
      trailingCommas: 'error',
      schemaValidation: 'error',
      schemas: [{ uri: 'loupe://schemas/search-request.json', fileMatch: [MODEL_URI], schema: querySchema(fields?.map((f) => ({ path: f.path, type: f.type })) ?? []) }],
    });
  }, [fields]);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    if (error?.line) {
      const line = Math.min(error.line, model.getLineCount());
      const col = Math.max(1, error.col ?? 1);
      const word = model.getWordAtPosition({ lineNumber: line, column: col });
      monaco.editor.setModelMarkers(model, 'elasticsearch', [
        { severity: monaco.MarkerSeverity.Error, message: error.message, startLineNumber: line, startColumn: word?.startColumn ?? col, endLineNumber: line, endColumn: word?.endColumn ?? col + 1, source: 'Elasticsearch' },
      ]);
      editorRef.current?.revealLineInCenterIfOutsideViewport(line);
    } else monaco.editor.setModelMarkers(model, 'elasticsearch', []);
  }, [error, editorRef]);

  return <div ref={host} className="rel-editor" data-testid="query-editor" />;
}
