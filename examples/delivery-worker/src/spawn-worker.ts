/** Starts the delivery worker as its own process and waits until it runs. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { processBundle } from '@latchkey/test-utils/spawn';

export interface Worker {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
}

/**
 * Runs src/worker.ts with `env` and resolves once it says it started: `via: 'source'` under the tsx
 * loader, as a user runs it; `via: 'bundle'` as the bundle the test run's global setup builds, which
 * starts without compiling a few hundred modules (`scripts/test/process-bundles.ts`).
 */
export function startWorker(env: Record<string, string>, via: 'source' | 'bundle'): Promise<Worker> {
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const args =
    via === 'source'
      ? ['--conditions=@latchkey/source', '--import', tsx, 'src/worker.ts']
      : [processBundle(cwd, 'worker')];
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/delivery worker \d+ started/.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited (${code ?? signal}) before it started:\n${output}`));
    });
  });
}
