// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The folders of src/ and the folders each may import besides the shared layers (api, common,
 * workbench). The table has no cycle, and the README's "Imports between folders" lists it (a unit
 * test, test/unit/manifest/imports.test.ts, checks both against the code).
 */
const ALLOWED = {
  catalog: [],
  connections: ['catalog'],
  tree: ['catalog', 'connections'],
  documents: ['connections'],
  notebooks: ['catalog', 'connections', 'documents', 'tree'],
  projects: ['catalog', 'connections', 'documents', 'tree'],
  events: ['connections', 'tree'],
  webview: ['events'],
  api: [],
  common: [],
  workbench: [],
};
const FEATURES = Object.keys(ALLOWED).filter((folder) => !['api', 'common', 'workbench'].includes(folder));
/** Folders that run without VS Code: in unit tests, or in the webview. */
const WITHOUT_VSCODE = ['api', 'common', 'webview'];

/** Folders other folders reach only through their entry point (index.ts). */
const ENTRY_POINT_FOLDERS = ['api', ...FEATURES.filter((folder) => folder !== 'webview')];
const throughEntryPoints = {
  regex: `^\\.\\./(${ENTRY_POINT_FOLDERS.join('|')})/`,
  message: 'Import another folder of src/ through its entry point: `../<folder>`, not a file inside it.',
};
const noVscode = { name: 'vscode', message: 'This folder runs without VS Code (unit tests, the webview): it must not import vscode.' };

/** The import rules of one folder of src/. */
function folderRules(folder) {
  const forbidden = FEATURES.filter((other) => other !== folder && !ALLOWED[folder].includes(other));
  const layers = folder === 'api' ? [] : folder === 'common' ? ['common', 'workbench'] : folder === 'workbench' ? ['api', 'common'] : [];
  const patterns = [
    ...(folder === 'api' ? [] : [throughEntryPoints]),
    {
      regex: `^(\\.\\./)+(${[...forbidden, ...layers.filter((layer) => layer !== folder)].join('|')})(/|$)`,
      message: `src/${folder} may import only ${[...ALLOWED[folder], 'the shared layers'].join(', ')}: see "Imports between folders" in the README (no cycles).`,
    },
  ];
  return {
    files: [`src/${folder}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { paths: WITHOUT_VSCODE.includes(folder) ? [noVscode] : [], patterns }] },
  };
}

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
  ...Object.keys(ALLOWED).map(folderRules),
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'preserve-caught-error': 'off',
      'no-regex-spaces': 'off',
    },
  },
);
