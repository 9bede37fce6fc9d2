#!/usr/bin/env node
// The `latchkey` binary. Published (no sources in the package), it runs the built code in dist/.
// In a clone of the repository it runs the TypeScript sources under tsx with the workspace's source
// condition, so the CLI works right after `pnpm install` and never runs a stale build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The arguments for the child, with the value of any `--token` replaced: the CLI refuses `--token`
 * (a process's arguments are visible to every user in `ps`), and the token must not reach another
 * process's arguments on the way to that refusal.
 */
function withoutTokens(args) {
  const kept = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      kept.push(...args.slice(i));
      break;
    }
    if (arg.startsWith('--token=')) kept.push('--token=(hidden)');
    else if (arg === '--token' && i + 1 < args.length) {
      kept.push(arg, '(hidden)');
      i++;
    } else kept.push(arg);
  }
  return kept;
}

const source = fileURLToPath(new URL('../src/run.ts', import.meta.url));
if (!existsSync(source)) {
  const built = new URL('../dist/main.js', import.meta.url);
  const { main } = await import(built.href);
  process.exitCode = await main(process.argv.slice(2));
} else {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(
    process.execPath,
    ['--conditions=@latchkey/source', '--import', tsx, source, ...withoutTokens(process.argv.slice(2))],
    { stdio: 'inherit' },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}
