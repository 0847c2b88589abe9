// Bundles the extension (Node, CommonJS) and, as they are added, browser entries for webviews.
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// `--metafile` writes what each module contributes to a bundle beside it (dist/*.meta.json, not shipped).
const metafile = process.argv.includes('--metafile');

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'info',
};

/**
 * zod re-exports all of its ~60 message locales (`z.locales`), which would more than double its share
 * of the bundle; the extension only uses English, so the locales index resolves to English alone.
 * @type {import('esbuild').Plugin}
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    const localesDir = path.dirname(createRequire(import.meta.url).resolve('zod/v4/locales/en.js'));
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/zod/`) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: `export { default as en } from './en.js';`,
      resolveDir: localesDir,
      loader: 'js',
    }));
  },
};

/**
 * undici's entry point loads all of undici (fetch, WebSocket, EventSource, caches, mocks) to export it; the
 * extension uses only its dispatchers (Agent, ProxyAgent, EnvHttpProxyAgent) and their request API. So
 * `undici` resolves to a module that wires those as undici's index.js does (the API on Dispatcher's
 * prototype), which takes about half of undici out of the bundle. Tests run against the whole package.
 * @type {import('esbuild').Plugin}
 */
const undiciDispatchersOnly = {
  name: 'undici-dispatchers-only',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) =>
      args.importer.includes(`${path.sep}src${path.sep}`) ? { path: 'undici-dispatchers', namespace: 'undici-dispatchers-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'undici-dispatchers-only' }, () => ({
      contents: [
        `const Dispatcher = require('undici/lib/dispatcher/dispatcher');`,
        `Object.assign(Dispatcher.prototype, require('undici/lib/api'));`,
        `module.exports = {`,
        `  Dispatcher,`,
        `  Agent: require('undici/lib/dispatcher/agent'),`,
        `  ProxyAgent: require('undici/lib/dispatcher/proxy-agent'),`,
        `  EnvHttpProxyAgent: require('undici/lib/dispatcher/env-http-proxy-agent'),`,
        `};`,
      ].join('\n'),
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [zodEnglishOnly, undiciDispatchersOnly],
  },
  {
    ...common,
    entryPoints: ['src/webview/events/main.ts'],
    outfile: 'dist/webview/events.js',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
  },
  {
    ...common,
    entryPoints: ['src/webview/results/main.ts'],
    outfile: 'dist/webview/results.js',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
  },
];

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  const results = await Promise.all(builds.map((options) => esbuild.build({ ...options, metafile })));
  if (metafile) {
    for (const [index, result] of results.entries()) {
      await writeFile(builds[index].outfile.replace(/\.js$/, '.meta.json'), JSON.stringify(result.metafile));
    }
  }
}
