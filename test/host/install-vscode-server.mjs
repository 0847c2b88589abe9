#!/usr/bin/env node
// Installs a real VS Code server (VS Code 1.100.3, taken from the npm package code-server@4.100.3) into a
// cache directory outside the clone, following /work/shared/spec/real-vscode.md. VS Code desktop cannot be
// downloaded on these machines; the npm registry and Debian's apt are reachable.
//
// Usage: node test/host/install-vscode-server.mjs [--force]
// Env:   VSCODE_SERVER_DIR  install directory (default ~/.cache/posthog-explorer/vscode-server-4.100.3)
//
// Idempotent: a marker file records a finished install; a present marker means "reuse".
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
export const VSCODE_VERSION = '1.100.3';
const MARKER = '.posthog-explorer-install.json';

/** Native modules of VS Code's server that must be compiled against this machine's Node. */
const NATIVE_MODULES = ['@parcel/watcher', '@vscode/spdlog', 'native-watchdog', 'node-pty', 'kerberos'];

/** Debian packages the real-editor tier needs, each with a file that proves it is installed. */
const APT_PACKAGES = [
  { name: 'chromium', file: '/usr/bin/chromium' },
  { name: 'ripgrep', file: '/usr/bin/rg' },
  { name: 'libkrb5-dev', file: '/usr/include/krb5.h' },
];

export function vscodeServerDir() {
  return (
    process.env.VSCODE_SERVER_DIR ||
    path.join(os.homedir(), '.cache', 'posthog-explorer', `vscode-server-${CODE_SERVER_VERSION}`)
  );
}

/** Path of VS Code's server entry point inside an install directory. */
export function serverMainPath(dir = vscodeServerDir()) {
  return path.join(dir, 'lib', 'vscode', 'out', 'server-main.js');
}

export function isVscodeServerInstalled(dir = vscodeServerDir()) {
  return existsSync(path.join(dir, MARKER)) && existsSync(serverMainPath(dir));
}

function run(command, args, cwd, log, extraEnv = {}) {
  log(`$ ${command} ${args.join(' ')}${cwd ? `   (in ${cwd})` : ''}`);
  const result = spawnSync(command, args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...extraEnv },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

/** Installs the Debian packages that are missing (one `apt-get update` first). Needs root. */
export function ensureAptPackages(log = console.log) {
  const missing = APT_PACKAGES.filter((pkg) => !existsSync(pkg.file)).map((pkg) => pkg.name);
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = isRoot ? [] : ['sudo', '-n'];
  if (!isRoot && spawnSync('sudo', ['-n', 'true']).status !== 0) {
    throw new Error(`Missing Debian packages: ${missing.join(', ')}. Install them: apt-get install ${missing.join(' ')}`);
  }
  const aptEnv = { DEBIAN_FRONTEND: 'noninteractive' };
  const [cmd, ...pre] = [...sudo, 'apt-get'];
  run(cmd, [...pre, 'update', '-q'], undefined, log, aptEnv);
  run(cmd, [...pre, 'install', '-y', '-q', '--no-install-recommends', ...missing], undefined, log, aptEnv);
}

async function verifyNativeModules(vscodeDir) {
  // Loading each module in a child Node proves it was compiled for this Node's ABI.
  const script = NATIVE_MODULES.map((name) => `require(${JSON.stringify(name)});`).join('');
  execFileSync(process.execPath, ['-e', script], { cwd: vscodeDir, stdio: ['ignore', 'inherit', 'inherit'] });
}

async function installInto(target, log) {
  await fs.mkdir(target, { recursive: true });
  run('npm', ['pack', `code-server@${CODE_SERVER_VERSION}`, '--silent', '--pack-destination', target], undefined, log);
  const tarball = path.join(target, `code-server-${CODE_SERVER_VERSION}.tgz`);
  // The tarball holds a single folder `package/`; strip it so `target` is the package root.
  run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], undefined, log);
  await fs.rm(tarball);

  const vscodeDir = path.join(target, 'lib', 'vscode');
  const npmInstall = ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
  run('npm', npmInstall, vscodeDir, log);

  // code-server's postinstall would download ripgrep from the internet; Debian's binary does the same job.
  const rgDir = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  await fs.mkdir(rgDir, { recursive: true });
  await fs.copyFile('/usr/bin/rg', path.join(rgDir, 'rg'));
  await fs.chmod(path.join(rgDir, 'rg'), 0o755);

  // npm 11 warns that these install scripts are not covered by allowScripts (and would skip them in an
  // install), but `npm rebuild` of packages named explicitly does build them; loading them below proves it.
  run('npm', ['rebuild', ...NATIVE_MODULES, '--loglevel=error'], vscodeDir, log, { npm_config_yes: 'true' });
  await verifyNativeModules(vscodeDir);

  await fs.symlink('node_modules', path.join(vscodeDir, 'node_modules.asar'));
  run('npm', npmInstall, path.join(vscodeDir, 'extensions'), log);
}

/** Returns the install directory, installing VS Code's server there first when it is not installed yet. */
export async function ensureVscodeServer({ force = false, log = console.log } = {}) {
  const dir = vscodeServerDir();
  ensureAptPackages(log);
  if (!force && isVscodeServerInstalled(dir)) return dir;

  const started = Date.now();
  log(`Installing VS Code server ${VSCODE_VERSION} (code-server@${CODE_SERVER_VERSION}) into ${dir}`);
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const partial = `${dir}.partial-${process.pid}`;
  await fs.rm(partial, { recursive: true, force: true });
  try {
    await installInto(partial, log);
    const marker = { codeServer: CODE_SERVER_VERSION, vscode: VSCODE_VERSION, node: process.version, at: new Date().toISOString() };
    await fs.writeFile(path.join(partial, MARKER), JSON.stringify(marker, null, 2) + '\n');
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rename(partial, dir);
  } catch (error) {
    await fs.rm(partial, { recursive: true, force: true });
    throw error;
  }
  log(`VS Code server installed in ${Math.round((Date.now() - started) / 1000)} s: ${dir}`);
  return dir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const force = process.argv.includes('--force');
  ensureVscodeServer({ force }).then(
    (dir) => console.log(`VS Code server ready: ${dir}`),
    (error) => {
      console.error(`VS Code server install failed: ${error.message}`);
      process.exit(1);
    },
  );
}
