/**
 * Monaco, bundled by Vite from node_modules (no CDN), for the workbenches' editors: the editor
 * core, its features, and the JSON language with its worker (languages without a worker, such as
 * MySQL, are registered by the editor that uses them). Workers are Vite `?worker` chunks served
 * from the app's own origin (CSP worker-src 'self' blob:).
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import { jsonDefaults } from 'monaco-editor/languages/features/json/register';
import EditorWorker from 'monaco-editor/editor/editor.worker.js?worker';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker.js?worker';

type Env = { getWorker?(id: string, label: string): Worker | Promise<Worker> | undefined };
const g = globalThis as unknown as { MonacoEnvironment?: Env };
const previous = g.MonacoEnvironment?.getWorker;
// Keep another workbench's workers if it set them first; answer for ours.
g.MonacoEnvironment = {
  ...g.MonacoEnvironment,
  getWorker(id: string, label: string) {
    if (label === 'json') return new JsonWorker();
    if (label === 'editorWorkerService') return new EditorWorker();
    return previous?.(id, label) ?? new EditorWorker();
  },
};

export { monaco, jsonDefaults };
