/**
 * Starting and stopping an example server: exactly as a user would (`pnpm --dir examples/<name>
 * start`, which builds it and runs the bundle with node), under the tsx loader from source, or as
 * the bundle the test run builds (one plain Node process); wait for its `listening on` line, hand
 * back its URL, stop its whole process group. Free of vitest, so benches and scripts can start an
 * example too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A started example server. */
export interface StartedExample {
  child: ChildProcess;
  /** The URL it printed: `http://127.0.0.1:<port>` or `https://localhost:<port>`. */
  url: string;
  /** The whole `listening on …` line. */
  line: string;
  /** Everything it printed so far, stdout and stderr together. */
  output: () => string;
}

/** What a start that failed rejects with: the exit code and everything the server printed. */
export interface FailedStart extends Error {
  code?: number | null;
  output?: string;
}

const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:(\d+)|https:\/\/localhost:(\d+))$/m;

/** The workspace's `examples/` folder, found from here upwards by its `pnpm-workspace.yaml`. */
function examplesFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('no pnpm-workspace.yaml above the test-utils package');
    dir = parent;
  }
  return join(dir, 'examples');
}

/** pnpm as the running one was started (npx or a global install), else from PATH. */
function pnpm(args: string[]): [string, string[]] {
  const execPath = process.env['npm_execpath'];
  if (execPath && /pnpm/.test(execPath) && /\.c?js$/.test(execPath))
    return [process.execPath, [execPath, ...args]];
  return ['pnpm', args];
}

/** How an example is started: see {@link startExample}. */
export type StartVia = 'pnpm' | 'node' | 'bundle';

/**
 * Where the test run's global setup (`scripts/test/process-bundles.ts`) writes the bundle of a
 * program the tests start (an example's `src/<entry>.ts`, a test script): beside the dependencies of
 * its workspace folder, which it imports as they are.
 */
export function processBundle(folder: string, entry: string): string {
  return join(folder, 'node_modules', '.cache', `latchkey-${entry}.mjs`);
}

function command(dir: string, via: StartVia): [string, string[]] {
  if (via === 'pnpm') return pnpm(['--dir', dir, 'start']);
  if (via === 'bundle') return [process.execPath, [processBundle(dir, 'server')]];
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return [process.execPath, ['--conditions=@latchkey/source', '--import', tsx, 'src/server.ts']];
}

/**
 * Starts the example in its own process group and resolves with the URL it printed. `via: 'pnpm'`
 * runs its start script as a user would; `via: 'node'` runs the same source under the tsx loader in a
 * single process, so a signal reaches the server itself and its exit code is its own; `via: 'bundle'`
 * runs the same source bundled by the test run's global setup, also in a single process, without
 * compiling a few hundred modules at each start (tests only: the bundle exists once a test run began).
 */
export function startExample(
  name: string,
  env: Record<string, string>,
  via: StartVia = 'pnpm',
): Promise<StartedExample> {
  const dir = join(examplesFolder(), name);
  const [program, args] = command(dir, via);
  const child = spawn(program, args, {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in time:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = LISTENING.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, line: match[0], output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`${name} exited with ${code}:\n${output}`), { code, output }));
    });
  });
}

/**
 * Starts the example (in one process, its test bundle) expecting it to refuse: resolves with the
 * failure (exit code and output), or with undefined when it started after all (then it is stopped
 * at once).
 */
export function startExampleFailure(
  name: string,
  env: Record<string, string>,
): Promise<FailedStart | undefined> {
  return startExample(name, env, 'bundle').then(
    async (started) => {
      await stopExample(started.child, 'SIGKILL');
      return undefined;
    },
    (error: FailedStart) => error,
  );
}

/** Sends `signal` to the example's whole process group (pnpm, tsx and node) and waits for it to end. */
export async function stopExample(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  try {
    process.kill(-child.pid!, signal);
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  }, 10_000);
  await exited;
  clearTimeout(timer);
}
