/**
 * A Monaco editor bound to a store's text: one model per URI (its undo history outlives a
 * re-render), typing writes the store, the store's text (a template, a scenario, a deep link, a
 * test) wins over the model's, Ctrl/Cmd+Enter runs, and the theme follows the page's.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { monaco } from './monaco.js';
import { useThemeMode } from './theme-mode.js';

export interface BoundEditorOptions {
  uri: string;
  language: string;
  /** The store's text. */
  text: string;
  options: monaco.editor.IStandaloneEditorConstructionOptions;
  /** The user changed the text (the model is passed so markers can be cleared). */
  onChange(text: string, model: monaco.editor.ITextModel): void;
  onRun(): void;
}

export function useBoundEditor(host: RefObject<HTMLDivElement | null>, opts: BoundEditorOptions): RefObject<monaco.editor.IStandaloneCodeEditor | null> {
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  // the editor is made once; its callbacks read the latest options
  const latest = useRef(opts);
  useEffect(() => {
    latest.current = opts;
  });
  const dark = useThemeMode() === 'dark';

  useEffect(() => {
    if (!host.current) return;
    const { uri, language, text, options } = latest.current;
    const modelUri = monaco.Uri.parse(uri);
    const model = monaco.editor.getModel(modelUri) ?? monaco.editor.createModel(text, language, modelUri);
    const editor = monaco.editor.create(host.current, { ...options, model });
    editorRef.current = editor;
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onRun());
    const sub = model.onDidChangeContent(() => latest.current.onChange(model.getValue(), model));
    return () => {
      sub.dispose();
      editor.dispose();
      editorRef.current = null;
    };
  }, [host]);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model && model.getValue() !== opts.text) model.setValue(opts.text);
  }, [opts.text]);

  useEffect(() => {
    monaco.editor.setTheme(dark ? 'vs-dark' : 'vs');
  }, [dark]);

  return editorRef;
}
