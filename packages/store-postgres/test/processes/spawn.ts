/**
 * Runs a test's helper script in a Node process of its own, as a second app instance would: the
 * script's bundle the test run's global setup builds (`scripts/test/process-bundles.ts`), which
 * starts without compiling the store's sources under tsx each time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { processBundle } from '@latchkey/test-utils/spawn';

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));

/** Starts `processes/<script>.ts` (its bundle) with `env` added; stdout and stderr are collected. */
export function startScript(
  script: string,
  env: Record<string, string>,
): {
  child: ChildProcess;
  stdout: () => string;
  done: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [processBundle(PACKAGE, script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const done = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>(
    (resolve) => {
      child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
    },
  );
  return { child, stdout: () => stdout, done };
}

/** Runs the script to its end; throws with its output when it does not exit 0. */
export async function runScript(script: string, env: Record<string, string>): Promise<string> {
  const { code, signal, stdout, stderr } = await startScript(script, env).done;
  if (code !== 0) throw new Error(`${script} exited with ${code ?? signal}:\n${stderr}\n${stdout}`);
  return stdout;
}

/** Waits until the wall clock reaches `at` (ms), so processes started apart act together. */
export async function waitUntil(at: number): Promise<void> {
  const delay = at - Date.now();
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
}
