// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The folders of src/ and the folders each may import besides the shared layers (api, common,
 * workbench), which import no other folder. The table has no cycle, and CONTRIBUTING.md's "Imports
 * between folders" lists it: a unit test (test/unit/manifest/imports.test.ts) checks the table, the
 * list and the code's imports against each other. A folder of src/ missing here fails the lint.
 */
export const ALLOWED = {
  catalog: [],
  connections: ['catalog'],
  tree: ['catalog', 'connections'],
  documents: ['connections'],
  notebooks: ['catalog', 'connections', 'documents', 'tree'],
  projects: ['catalog', 'connections', 'documents', 'tree'],
  events: ['connections', 'tree'],
  queries: ['catalog', 'connections', 'documents', 'notebooks', 'results', 'tree'],
  results: [],
  webview: ['events', 'results'],
  api: [],
  common: [],
  workbench: [],
};
const LAYERS = ['api', 'common', 'workbench'];
const FEATURES = Object.keys(ALLOWED).filter((folder) => !LAYERS.includes(folder));
/** Folders that run without VS Code: in unit tests, or in the webview. */
const WITHOUT_VSCODE = ['api', 'common', 'webview'];
/** Sub-features of src/notebooks that run without VS Code too (logic unit-tested against the local API). */
const NOTEBOOK_PARTS_WITHOUT_VSCODE = ['model', 'markdown', 'merge', 'saving', 'session'];
/**
 * The sub-features of src/notebooks, lowest first, and the ones each may import. Imports run one way: a
 * sub-feature never imports the feature's root (its wiring: index.ts and the command groups), nor one
 * above it. docs/notebooks.md describes each.
 */
export const NOTEBOOK_PARTS = {
  model: [],
  markdown: ['model'],
  merge: ['model', 'markdown'],
  saving: ['model', 'markdown', 'merge'],
  session: ['model', 'markdown', 'merge', 'saving'],
  lists: ['model', 'markdown'],
  files: ['model', 'markdown', 'merge', 'saving', 'session', 'lists'],
  history: ['model', 'saving', 'session', 'lists', 'files'],
};
/** The one file that calls vscode.window and vscode.env: everything else reaches them through it. */
const WINDOW_SEAM = 'src/workbench/window.ts';

/** Folders other folders reach only through their entry point (index.ts). */
const ENTRY_POINT_FOLDERS = ['api', ...FEATURES.filter((folder) => folder !== 'webview')];
const throughEntryPoints = {
  regex: `^\\.\\./(${ENTRY_POINT_FOLDERS.join('|')})/`,
  message: 'Import another folder of src/ through its entry point: `../<folder>`, not a file inside it.',
};
const noVscode = { name: 'vscode', message: 'This folder runs without VS Code (unit tests, the webview): it must not import vscode.' };
const seamMessage = `Prompts, editors, the clipboard and the browser go through the window seam (${WINDOW_SEAM}), so that in-editor tests can script them.`;
const seamRules = {
  'no-restricted-properties': [
    'error',
    { object: 'vscode', property: 'window', message: seamMessage },
    { object: 'vscode', property: 'env', message: seamMessage },
  ],
  'no-restricted-syntax': [
    'error',
    { selector: "ImportDeclaration[source.value='vscode'] > ImportSpecifier[imported.name=/^(window|env)$/]", message: seamMessage },
  ],
};

/** The import patterns one folder of src/ is held to: other folders through entry points, and no cycles. */
function folderPatterns(folder) {
  const forbidden = LAYERS.includes(folder)
    ? [...FEATURES, ...LAYERS.filter((layer) => layer !== folder)]
    : FEATURES.filter((other) => other !== folder && !ALLOWED[folder].includes(other));
  const allowed = LAYERS.includes(folder) ? 'no other folder' : `only ${[...ALLOWED[folder], 'the shared layers'].join(', ')}`;
  return [
    ...(folder === 'api' ? [] : [throughEntryPoints]),
    {
      regex: `^(\\.\\./)+(${forbidden.join('|')})(/|$)`,
      message: `src/${folder} may import ${allowed}: see "Imports between folders" in CONTRIBUTING.md (no cycles).`,
    },
  ];
}

/** The import rules of one folder of src/. */
function folderRules(folder) {
  const patterns = folderPatterns(folder);
  return [
    {
      files: [`src/${folder}/**/*.ts`],
      rules: { 'no-restricted-imports': ['error', { paths: WITHOUT_VSCODE.includes(folder) ? [noVscode] : [], patterns }] },
    },
  ];
}

/** A sub-feature of src/notebooks may import only those below it, never the feature's root. */
function notebookPartRules(part) {
  const allowed = NOTEBOOK_PARTS[part];
  const pattern = {
    regex: `^\\.\\./(?!(${[...allowed, '\\.\\.'].join('|')})(/|$))`,
    message: `src/notebooks/${part} may import ${allowed.length ? `only ${allowed.join(', ')} of src/notebooks` : 'no other part of src/notebooks'} (see NOTEBOOK_PARTS), never the feature's root.`,
  };
  return {
    files: [`src/notebooks/${part}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', { paths: NOTEBOOK_PARTS_WITHOUT_VSCODE.includes(part) ? [noVscode] : [], patterns: [...folderPatterns('notebooks'), pattern] }],
    },
  };
}

/** Folders of src/ that the table leaves out: every file in them fails the lint until the table names them. */
const unlisted = readdirSync(new URL('./src', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !(entry.name in ALLOWED))
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['**/*.js', '**/*.mjs', '**/*.cjs', 'out/**', 'dist/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', 'bench-results/**', 'media/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // TypeScript checks names itself, with the right globals for each environment.
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [throughEntryPoints] }] },
  },
  ...Object.keys(ALLOWED).flatMap(folderRules),
  ...Object.keys(NOTEBOOK_PARTS).map(notebookPartRules),
  { files: ['src/**/*.ts'], ignores: [WINDOW_SEAM], rules: seamRules },
  ...unlisted.map((folder) => ({
    files: [`src/${folder}/**/*.ts`],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Program', message: `src/${folder} is not in the ALLOWED table of eslint.config.mjs: add it, with the folders it may import.` },
      ],
    },
  })),
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'preserve-caught-error': 'off',
      'no-regex-spaces': 'off',
    },
  },
);
