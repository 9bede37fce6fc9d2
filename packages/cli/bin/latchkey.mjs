#!/usr/bin/env node
// The `latchkey` binary. Published (no sources in the package), it runs the built code in dist/.
// In a clone of the repository it runs the TypeScript sources under tsx with the workspace's source
// condition, so the CLI works right after `pnpm install` and never runs a stale build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The arguments for the child without any `--token` value, and that value: a process's arguments
 * are visible to every user of the machine (`ps`), so the token reaches the child through its
 * environment (readable by this user only), never through another process's arguments.
 */
function takeToken(args) {
  const kept = [];
  let token;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      kept.push(...args.slice(i));
      break;
    }
    if (arg.startsWith('--token=')) token = arg.slice('--token='.length);
    else if (arg === '--token' && i + 1 < args.length) token = args[++i];
    else kept.push(arg);
  }
  return { args: kept, token };
}

const source = fileURLToPath(new URL('../src/run.ts', import.meta.url));
if (!existsSync(source)) {
  const built = new URL('../dist/main.js', import.meta.url);
  const { main } = await import(built.href);
  process.exitCode = await main(process.argv.slice(2));
} else {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const { args, token } = takeToken(process.argv.slice(2));
  const env = token === undefined ? process.env : { ...process.env, LATCHKEY_TOKEN_ARGUMENT: token };
  const child = spawn(process.execPath, ['--conditions=@latchkey/source', '--import', tsx, source, ...args], {
    stdio: 'inherit',
    env,
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}
