// Runs `pnpm run <script>` and prints how long it took when it ends, passed or failed, with its exit
// code passed on: `npm test` ends on the time the whole check took.
import { spawn } from 'node:child_process';

const script = process.argv[2];
if (!script) {
  console.error('usage: node scripts/timed.mjs <package script>');
  process.exit(2);
}
const began = performance.now();
const child = spawn('pnpm', ['run', script], { stdio: 'inherit', shell: process.platform === 'win32' });
const elapsed = () => {
  const seconds = Math.round((performance.now() - began) / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
};
child.on('exit', (code, signal) => {
  const status = code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`;
  console.log(`\ncheck ${status} in ${elapsed()}`);
  process.exit(code ?? 1);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
