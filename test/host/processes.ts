import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';

/** Runs a command to completion; its output is shown only when it fails (or always with `inherit`). */
export function runToCompletion(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; inherit?: boolean } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', options.inherit ? 'inherit' : 'pipe', options.inherit ? 'inherit' : 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})\n${output}`));
    });
  });
}

export interface LongRunning {
  child: ChildProcess;
  /** Resolves with the first match of `pattern` in the output (stdout or stderr). */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** Stops the process and everything it started (its process group): SIGTERM, then SIGKILL after a grace. */
  stop(graceMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

/** Process groups started here and not yet stopped: killed when this process exits, however it exits. */
const liveGroups = new Set<number>();
process.on('exit', () => {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
});

/** Starts a process in its own process group, copying its output to `logFile` (and to `echo` if given). */
export function startLongRunning(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; logFile: string; echo?: (text: string) => void },
): LongRunning {
  const log: WriteStream = createWriteStream(options.logFile, { flags: 'a' });
  const spawnOptions: SpawnOptions = { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true };
  const child = spawn(command, args, spawnOptions);
  const group = child.pid;
  if (group) liveGroups.add(group);
  let output = '';
  const watchers = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    log.write(text);
    options.echo?.(text);
    for (const watcher of watchers) watcher();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (error) => {
      log.write(`\n[failed to start: ${error.message}]\n`);
      resolve(null);
    });
    child.on('exit', (code) => resolve(code));
  });
  let alive = true;
  void exited.then(() => {
    alive = false;
    for (const watcher of watchers) watcher();
  });

  return {
    child,
    exited,
    waitForOutput(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (match) finish(() => resolve(match));
          else if (!alive) finish(() => reject(new Error(`${command} exited before printing ${pattern}:\n${output.slice(-4000)}`)));
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`${command} did not print ${pattern} within ${timeoutMs} ms:\n${output.slice(-4000)}`))),
          timeoutMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          watchers.delete(check);
          settle();
        };
        watchers.add(check);
        check();
      });
    },
    async stop(graceMs = 5_000) {
      if (alive && child.pid) {
        signalGroup(child.pid, 'SIGTERM');
        const stopped = await Promise.race([exited.then(() => true), delay(graceMs).then(() => false)]);
        if (!stopped) signalGroup(child.pid, 'SIGKILL');
        await exited;
      }
      // Children of the group (e.g. VS Code's extension host) may outlive the leader briefly.
      if (group) {
        signalGroup(group, 'SIGKILL');
        liveGroups.delete(group);
      }
      await new Promise<void>((resolve) => log.end(resolve));
    },
  };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The first port from `start` on that accepts a listener on 127.0.0.1 (0 = any free port). */
export async function firstFreePort(start: number, tries = 100): Promise<number> {
  for (let port = start; port < start + tries; port++) {
    const free = await new Promise<number | undefined>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : undefined));
      });
    });
    if (free !== undefined) return free;
    if (start === 0) break;
  }
  throw new Error(`No free port on 127.0.0.1 from ${start}`);
}
