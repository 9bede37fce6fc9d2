/** Runs the built CLI in a process of its own (`cli-child.mjs`) and answers its exit code, time and peak RSS. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface CliMeasure {
  code: number;
  seconds: number;
  peakRssMb: number;
}

export async function measureCli(args: string[], env: Record<string, string>): Promise<CliMeasure> {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./cli-child.mjs', import.meta.url)), ...args],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  await new Promise((resolve) => child.on('exit', resolve));
  const measured = JSON.parse(stdout.trim().split('\n').at(-1)!) as CliMeasure;
  if (measured.code !== 0)
    throw new Error(`latchkey ${args.slice(0, 2).join(' ')} exited ${measured.code}:\n${stdout}`);
  return measured;
}
