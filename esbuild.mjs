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
 * zod re-exports all of its ~60 message locales (`z.locales`), and the extension sets its messages through
 * that namespace (`src/api/validate.ts`), which would keep every locale: about 250 KB, six times zod's share of
 * the bundle. The extension only uses English, so the locales index resolves to English alone.
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
 * extension uses only its dispatchers (Agent, ProxyAgent, EnvHttpProxyAgent) and their `request` (ProxyAgent
 * tunnels with `connect`). So `undici` resolves to a module that wires those as undici's index.js does (the API
 * on Dispatcher's prototype), which takes about half of undici out of the bundle. Tests run against the whole
 * package.
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
        `Object.assign(Dispatcher.prototype, {`,
        `  request: require('undici/lib/api/api-request'),`,
        `  connect: require('undici/lib/api/api-connect'),`,
        `});`,
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

/**
 * Parts of undici's dispatchers that the extension's requests never reach, each replaced by a module that fails
 * plainly if it ever is (undici's own error types, so the client maps them as it maps undici's).
 * - The wasm HTTP parser with SIMD: undici falls back to the one without SIMD when it cannot be compiled, and
 *   that one runs on every platform. Keeping one of the two (each 72 KB of base64) takes 24 KB off the .vsix.
 * - HTTP/2: a client offers it (ALPN) only with `allowH2`, which the extension never sets.
 * - SOCKS proxies: the proxy route (`src/api/network.ts`) takes only http:// and https:// proxies.
 * - fetch's body reader: undici needs it only for a FormData request body; the extension sends JSON text.
 * @type {import('esbuild').Plugin}
 */
const undiciUnreachedParts = {
  name: 'undici-unreached-parts',
  setup(build) {
    const stubs = [
      [/\/llhttp_simd-wasm\.js$/, `throw new Error('undici without SIMD: the plain llhttp is bundled');`],
      [/\/client-h2\.js$/, unreached('connectH2', 'HTTP/2 (allowH2) is not bundled')],
      [/\/socks5-proxy-agent$/, unreached('Socks5ProxyAgent', 'SOCKS proxies are not supported')],
      [/\/web\/fetch\/body\.js$/, `module.exports.extractBody = ${unreachedFunction('FormData request bodies are not bundled')};`],
    ];
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!args.importer.includes(`${path.sep}node_modules${path.sep}undici${path.sep}`)) {
        return undefined;
      }
      const index = stubs.findIndex(([filter]) => filter.test(args.path));
      return index < 0 ? undefined : { path: String(index), namespace: 'undici-unreached-parts' };
    });
    build.onLoad({ filter: /.*/, namespace: 'undici-unreached-parts' }, (args) => ({
      contents: stubs[Number(args.path)][1],
      resolveDir: path.dirname(createRequire(import.meta.url).resolve('undici/lib/core/errors.js')),
      loader: 'js',
    }));
  },
};

function unreachedFunction(what) {
  return `function () { throw new (require('./errors.js').NotSupportedError)(${JSON.stringify(what)}); }`;
}

function unreached(name, what) {
  return `module.exports = ${unreachedFunction(what).replace('function ()', `function ${name} ()`)};`;
}

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
    plugins: [zodEnglishOnly, undiciDispatchersOnly, undiciUnreachedParts],
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
