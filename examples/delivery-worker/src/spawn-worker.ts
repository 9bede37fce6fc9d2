/** Starts the delivery worker as its own process, as a user would run it, and waits until it runs. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface Worker {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
}

/** Runs src/worker.ts under the tsx loader with `env`; resolves once it says it started. */
export function startWorker(env: Record<string, string>): Promise<Worker> {
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--conditions=@latchkey/source', '--import', tsx, 'src/worker.ts'], {
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
