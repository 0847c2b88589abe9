// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Folders of src/ that other folders reach only through their entry point (index.ts). */
const ENTRY_POINT_FOLDERS = ['api', 'catalog', 'connections', 'tree', 'documents', 'notebooks', 'projects', 'events'];

const throughEntryPoints = {
  regex: `^\\.\\./(${ENTRY_POINT_FOLDERS.join('|')})/`,
  message: 'Import another folder of src/ through its entry point: `../<folder>`, not a file inside it.',
};
const noVscode = { name: 'vscode', message: 'This folder runs without VS Code (unit tests, the webview): it must not import vscode.' };

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
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [throughEntryPoints] }] },
  },
  {
    files: ['src/api/**/*.ts', 'src/common/**/*.ts', 'src/webview/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: [throughEntryPoints] }] },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'preserve-caught-error': 'off',
      'no-regex-spaces': 'off',
    },
  },
  {
    // Inside its own folder a module imports its neighbours directly.
    files: ['src/api/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
);
