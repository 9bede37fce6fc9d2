// Starts the Express example from source with a bootstrap admin token, prints how to reach it, and
// stays in the foreground until Ctrl-C. `npm start` runs this after installing dependencies.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const token = process.env.LATCHKEY_BOOTSTRAP_ADMIN_TOKEN || `lk_${randomBytes(32).toString('base64url')}`;
const cwd = fileURLToPath(new URL('../examples/express/', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const child = spawn(process.execPath, ['--conditions=@latchkey/source', '--import', tsx, 'src/server.ts'], {
  cwd,
  env: { ...process.env, LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: token },
  stdio: ['ignore', 'pipe', 'inherit'],
});

let buffered = '';
let ready = false;
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  if (ready) return;
  buffered += chunk;
  const match = /^listening on (http:\/\/\S+)$/m.exec(buffered);
  if (!match) return;
  ready = true;
  const url = match[1];
  console.log(
    [
      '',
      'Latchkey is running (Express adapter, in-memory store).',
      `  URL:          ${url}/api/v2`,
      '  Organization: acme (owner: admin)',
      `  Admin token:  ${token}`,
      '',
      'Try it:',
      `  curl -s -H 'Authorization: Bearer ${token}' ${url}/api/v2/organizations/acme`,
      '',
      `OpenAPI document: ${url}/api/v2/openapi.json`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
});

// Ctrl-C in a terminal reaches both processes; a signal sent to this one alone is passed on. The
// server stops once however many copies it gets, then this process exits with its code.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}

child.on('exit', (code, signal) => {
  if (!ready) console.error('The example server stopped before it was ready.');
  process.exit(code ?? (signal ? 1 : 0));
});
