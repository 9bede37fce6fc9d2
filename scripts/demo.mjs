// Starts the Express example (built from source) on embedded PGlite, prints how to reach it, and stays in the
// foreground until Ctrl-C. `npm start` runs this after installing dependencies. The data lives in
// `.data/demo/` (git-ignored), with the admin token beside it, so a restarted demo keeps both.
// Beside the server runs a webhook receiver on https://localhost (a self-signed certificate made
// here, which the server trusts through NODE_EXTRA_CA_CERTS): it registers itself as an audit
// webhook and prints every delivery it verifies with @latchkey/webhook-verifier.
// Beside them runs a tiny host app on another loopback origin (scripts/demo-host.ts), whose page
// embeds the Audit Webhooks portal with <latchkey-portal>, minting a portal session as it loads.
// LATCHKEY_DEMO_DIR (instead of .data/demo/), LATCHKEY_STORE (a postgres:// URL, `memory` or
// another directory) and LATCHKEY_BOOTSTRAP_ADMIN_TOKEN override the defaults.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import selfsigned from 'selfsigned';

const dataDir = process.env.LATCHKEY_DEMO_DIR
  ? resolve(process.env.LATCHKEY_DEMO_DIR)
  : fileURLToPath(new URL('../.data/demo', import.meta.url));
const tokenFile = join(dataDir, 'admin-token');
const pgliteDir = join(dataDir, 'pglite');
mkdirSync(dataDir, { recursive: true, mode: 0o700 });

/** The token of the first start, kept (readable by this user only) so the demo always prints the same one. */
function demoToken() {
  if (process.env.LATCHKEY_BOOTSTRAP_ADMIN_TOKEN) return process.env.LATCHKEY_BOOTSTRAP_ADMIN_TOKEN;
  if (existsSync(tokenFile)) return readFileSync(tokenFile, 'utf8').trim();
  const token = `lk_${randomBytes(32).toString('base64url')}`;
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  return token;
}

/** The receiver's certificate for localhost, made on first start and kept beside the data. */
async function receiverCertificate() {
  const cert = join(dataDir, 'receiver-cert.pem');
  const key = join(dataDir, 'receiver-key.pem');
  if (!existsSync(cert) || !existsSync(key)) {
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      days: 3650,
      keySize: 2048,
      extensions: [
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    writeFileSync(key, pems.private, { mode: 0o600 });
    writeFileSync(cert, pems.cert);
  }
  return { cert, key };
}

/** A free loopback port for the host app, whose origin the server must allow before it starts. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const token = demoToken();
const hostPort = await freePort();
const receiverTls = await receiverCertificate();
const store = process.env.LATCHKEY_STORE || pgliteDir;
const cwd = fileURLToPath(new URL('../examples/express/', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
// Built into one file and run with plain node, as the example's start script does: under the tsx
// loader the server held about 80 MB more.
const build = fileURLToPath(new URL('../examples/shared/bin/build-example.mjs', import.meta.url));
execFileSync(process.execPath, [build, 'src/server.ts', 'dist/server.mjs'], { cwd, stdio: 'inherit' });

const child = spawn(process.execPath, ['dist/server.mjs'], {
  cwd,
  env: {
    ...process.env,
    LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: token,
    LATCHKEY_STORE: store,
    // The receiver is on localhost: let deliveries reach it, and trust its certificate.
    LATCHKEY_WEBHOOK_ALLOW_HOSTS: 'localhost',
    NODE_EXTRA_CA_CERTS: receiverTls.cert,
    // The host app's page may frame the portal.
    LATCHKEY_PORTAL_ORIGINS: `http://127.0.0.1:${hostPort}`,
  },
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
  void announce(url);
});

/** Makes sure project `web` has environment `prod` (the README's CLI steps use them), then says how to reach the demo. */
async function announce(url) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (const [path, slug] of [
    ['/projects', 'web'],
    ['/projects/web/environments', 'prod'],
  ]) {
    const answer = await fetch(`${url}/api/v2/organizations/acme${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ slug }),
    }).catch((error) => ({ status: error.message }));
    // 409: made by an earlier start.
    if (answer.status !== 201 && answer.status !== 409)
      console.error(`demo: could not create ${slug}: ${answer.status}`);
  }
  const example = await freeProjectSlug(url, headers);
  const storeLine = /^store: (.+)$/m.exec(buffered)?.[1] ?? 'unknown store';
  const auditKey = /^audit public key: (\S+)/m.exec(buffered)?.[1] ?? 'unknown';
  console.log(
    [
      '',
      `Latchkey is running (Express adapter, ${storeLine}).`,
      `  URL:          ${url}/api/v2`,
      '  Organization: acme (owner: admin), with project web and its environment prod',
      `  Admin token:  ${token}`,
      '',
      'Try it:',
      `  curl -s -H 'Authorization: Bearer ${token}' ${url}/api/v2/organizations/acme`,
      '',
      `Dashboard:        ${url}/dashboard (sign in with the admin token; Settings > Notifications > Audit Webhooks)`,
      `OpenAPI document: ${url}/api/v2/openapi.json`,
      `Audit public key: ${auditKey} (pin it to verify exports: verifyActivityExport from @latchkey/core/client)`,
      store === pgliteDir ? `Data and token are kept in ${dataDir} (delete it to start afresh).` : '',
      `Host app:         http://127.0.0.1:${hostPort}/ (another origin: its settings page embeds the Audit Webhooks portal)`,
      'A webhook receiver is starting on https://localhost (scheme standard-webhooks-ed25519: it verifies',
      "with the organization's public key only, no secret); every delivery it verifies is printed below",
      'as "receiver: verified <type> <id>". Create a project to see one:',
      `  curl -s -X POST -H 'Authorization: Bearer ${token}' -H 'content-type: application/json' -d '{"slug":"${example}"}' ${url}/api/v2/organizations/acme/projects`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  startReceiver(url);
  startHost(url);
}

/**
 * A project slug the organization does not have yet (`api`, else `api-2`, …), for the printed
 * command that creates one: the command must work as printed, on a first start and after a
 * restart that finds the one an earlier start suggested.
 */
async function freeProjectSlug(url, headers) {
  const answer = await fetch(`${url}/api/v2/organizations/acme/projects`, { headers })
    .then((response) => (response.ok ? response.json() : { projects: [] }))
    .catch(() => ({ projects: [] }));
  const taken = new Set((answer.projects ?? []).map((project) => project.slug));
  let n = 1;
  while (taken.has(n === 1 ? 'api' : `api-${n}`)) n++;
  return n === 1 ? 'api' : `api-${n}`;
}

/** The webhook receiver, its lines prefixed with `receiver:`. */
function startReceiver(url) {
  receiver = spawn(
    process.execPath,
    ['--conditions=@latchkey/source', '--import', tsx, 'scripts/demo-receiver.ts'],
    {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: {
        ...process.env,
        LATCHKEY_URL: url,
        LATCHKEY_TOKEN: token,
        RECEIVER_CERT: receiverTls.cert,
        RECEIVER_KEY: receiverTls.key,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  receiver.stdout.setEncoding('utf8');
  let partial = '';
  receiver.stdout.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) console.log(`receiver: ${line}`);
  });
}

/** The host app, its lines prefixed with `host:`. */
function startHost(url) {
  host = spawn(process.execPath, ['--conditions=@latchkey/source', '--import', tsx, 'scripts/demo-host.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, LATCHKEY_URL: url, LATCHKEY_TOKEN: token, HOST_PORT: String(hostPort) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  host.stdout.setEncoding('utf8');
  host.stdout.on('data', (chunk) => {
    for (const line of chunk.split('\n').filter(Boolean)) console.log(`host: ${line}`);
  });
}

// Ctrl-C in a terminal reaches every process; a signal sent to this one alone is passed on. The
// server stops once however many copies it gets, then this process exits with its code.
let receiver = null;
let host = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    receiver?.kill(signal);
    host?.kill(signal);
    child.kill(signal);
  });
}

child.on('exit', (code, signal) => {
  if (!ready) console.error('The example server stopped before it was ready.');
  receiver?.kill('SIGTERM');
  host?.kill('SIGTERM');
  process.exit(code ?? (signal ? 1 : 0));
});
