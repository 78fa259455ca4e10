// The lint configuration for the whole repository: eslint + typescript-eslint, React hooks rules
// for the renderer, and the layer rule that keeps the import directions of ARCHITECTURE.md:
//
//   renderer ──(types only)──► core/host/contract
//   electron ──► core/host ──► core/{search,federation,cdc} ──► core/common
//   core/cli ──► core/host
//
// The layer rule resolves every relative import against the importing file, so it judges the
// folder an import really lands in, not how the path happens to be spelled.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const ENGINES = ['search', 'federation', 'cdc'];
/** Packages that belong to the UI layers; core is plain Node and must not load them. */
const UI_PACKAGES = ['electron', 'react', 'react-dom', 'zustand', 'monaco-editor'];

/** `core/search/query/x.ts` → `{ top: 'core', sub: 'search' }` (paths relative to the repo). */
function layerOf(absPath) {
  const rel = path.relative(ROOT, absPath).split(path.sep);
  if (rel[0] === '..') return { top: 'outside', sub: '' };
  return { top: rel[0], sub: rel[0] === 'core' ? (rel[1] ?? '') : '', rel: rel.join('/') };
}

function packageName(source) {
  const parts = source.split('/');
  return source.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Why importing `source` from `fromFile` breaks the layering, or null when it is allowed.
 * `typeOnly` is true for `import type` / `export type` (erased at build time).
 */
export function layerViolation(fromFile, source, typeOnly) {
  const from = layerOf(fromFile);
  const relative = source.startsWith('.') || source.startsWith('/');
  if (!relative) {
    if (from.top === 'core' && UI_PACKAGES.includes(packageName(source))) {
      return `core is plain Node: it may not import '${source}'`;
    }
    // The build config and the tests run in Node, not in the page.
    const nodeSide = from.rel === 'renderer/vite.config.ts' || /\.test\.tsx?$/.test(from.rel ?? '');
    if (from.top === 'renderer' && !nodeSide && (source.startsWith('node:') || source === 'electron')) {
      return `the renderer runs in a sandboxed page: it may not import '${source}' (call the host through the bridge)`;
    }
    return null;
  }
  const to = layerOf(path.resolve(path.dirname(fromFile), source));
  // Renderer tests run in Node, not in the page: they may drive the real host and the desktop
  // transport to check that the renderer's bridge behaves the same over both.
  if (from.top === 'renderer' && /\.test\.tsx?$/.test(fromFile)) return null;
  if (to.top === from.top && to.sub === from.sub) return null;

  if (from.top === 'core') {
    if (to.top === 'electron' || to.top === 'renderer') return `core may not import ${to.top}/`;
    if (to.top !== 'core') return null;
    if (from.sub === 'common') return `core/common imports no other core folder (found core/${to.sub})`;
    if (ENGINES.includes(from.sub)) {
      if (to.sub === 'common') return null;
      return `engines never import each other or the host: core/${from.sub} may import only core/common (found core/${to.sub})`;
    }
    if (from.sub === 'host' && to.sub === 'cli') return 'core/host may not import core/cli (the command sits on top of the host)';
    return null;
  }
  if (from.top === 'electron') {
    if (to.top === 'renderer') return 'electron may not import renderer code (it loads the built renderer as a page)';
    if (to.top === 'core' && to.sub !== 'host' && to.sub !== 'common') {
      return `electron talks to the host only: it may import core/host and core/common (found core/${to.sub})`;
    }
    return null;
  }
  if (from.top === 'renderer') {
    if (to.top === 'core') {
      const isContract = to.rel === 'core/host/contract.ts' || to.rel === 'core/host/contract.js' || to.rel.startsWith('core/host/contract/');
      // The contract re-exports types from core/common (ServiceName); following those is fine.
      if (!isContract) return `the renderer may import only core/host/contract (found ${to.rel})`;
      if (!typeOnly) return 'the renderer may import core/host/contract only as types (`import type`)';
      return null;
    }
    if (to.top === 'electron') return 'the renderer may not import electron code (it talks to the host through the bridge)';
  }
  return null;
}

const layersRule = {
  meta: { type: 'problem', schema: [], docs: { description: 'import directions of ARCHITECTURE.md' } },
  create(context) {
    const file = context.filename;
    const check = (node, sourceNode, typeOnly) => {
      if (!sourceNode || typeof sourceNode.value !== 'string') return;
      const why = layerViolation(file, sourceNode.value, typeOnly);
      if (why) context.report({ node, message: why });
    };
    const allTypes = (node) =>
      node.importKind === 'type' ||
      node.exportKind === 'type' ||
      (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
    return {
      ImportDeclaration: (node) => check(node, node.source, allTypes(node)),
      ExportNamedDeclaration: (node) => check(node, node.source, allTypes(node)),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
    };
  },
};

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dist/**', 'release/**', 'coverage/**', 'test-results/**', 'playwright-report/**', 'tmp/**', '.loupe-data/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { loupe: { rules: { layers: layersRule } } },
    rules: {
      'loupe/layers': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs,ts}'],
    ignores: ['renderer/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.flat.recommended.rules },
  },
  {
    // Node-side config of the renderer's build.
    files: ['renderer/vite.config.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
);
