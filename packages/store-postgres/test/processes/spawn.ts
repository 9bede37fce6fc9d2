/** Runs a test's helper script in a Node process of its own, from source, as a second app instance would. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Starts `processes/<script>.ts` with `env` added; stdout and stderr are collected. */
export function startScript(
  script: string,
  env: Record<string, string>,
): {
  child: ChildProcess;
  stdout: () => string;
  done: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>;
} {
  const file = fileURLToPath(new URL(`./${script}.ts`, import.meta.url));
  const child = spawn(process.execPath, ['--conditions=@latchkey/source', '--import', tsx, file], {
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
