// The steps of `npm test`. The static checks (types, lint, the shape of the workspace) use one core
// for about a minute while the test suite mostly waits on PostgreSQL, spawned processes and sockets,
// so they run beside it, their output held back and printed once the suite ends (the built packages
// are checked by the release test, in the clean checkout it builds). Any failing step fails the run,
// with its output.
import { spawn } from 'node:child_process';

/** Runs `pnpm run <script>`; with `hold`, keeps its output instead of printing it. */
function run(script, hold = false) {
  return new Promise((resolve) => {
    const child = spawn('pnpm', ['run', script], {
      stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      shell: process.platform === 'win32',
    });
    let output = '';
    if (hold) {
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
    }
    child.on('exit', (code, signal) => resolve({ script, ok: code === 0, code: code ?? signal, output }));
  });
}

const staticChecks = run('check:static', true);
const tests = await run('test:unit');
const statics = await staticChecks;
process.stdout.write(`\n${statics.output}`);
const failed = [statics, tests].filter((step) => !step.ok);
for (const step of failed) console.error(`✗ ${step.script} failed (${step.code})`);
process.exit(failed.length === 0 ? 0 : 1);
