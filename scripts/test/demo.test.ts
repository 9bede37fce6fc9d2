/**
 * The demo `npm start` runs: on PGlite, it keeps its data and prints the same admin token after a
 * restart, and its HTTPS receiver verifies signed deliveries within moments of the events.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { killGroup } from './kill-group.js';

const DEMO = fileURLToPath(new URL('../demo.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'latchkey-demo-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.pid !== undefined) killGroup(child.pid);
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the demo and resolves with its URL and the token it printed, once it says it is running. */
function startDemo(): Promise<{
  child: ChildProcess;
  url: string;
  token: string;
  output: string;
  more: () => string;
}> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LATCHKEY_DEMO_DIR: dir };
  delete env['LATCHKEY_STORE'];
  delete env['LATCHKEY_BOOTSTRAP_ADMIN_TOKEN'];
  // Its own process group, so the server and receiver it starts end with it.
  const child = spawn(process.execPath, [DEMO], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start:\n${output}`)), 45_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = /URL: +(http:\/\/\S+)\/api\/v2/.exec(output)?.[1];
      const token = /Admin token: +(\S+)/.exec(output)?.[1];
      if (url && token && output.includes('Press Ctrl-C')) {
        clearTimeout(timer);
        resolve({ child, url, token, output, more: () => output });
      }
    });
    child.on('exit', (code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
  });
}

/**
 * Runs the command the demo prints under "Create a project to see one:" as a newcomer would: the
 * same method, headers, body and URL, read from the printed `curl` line. Resolves with the status
 * and the slug it created.
 */
async function followSuggestion(output: string): Promise<{ status: number; slug: string }> {
  const line = output
    .split('\n')
    .find((_, i, lines) => lines[i - 1]?.endsWith('Create a project to see one:'));
  const curl =
    /^ {2}curl -s -X POST -H '(Authorization: Bearer \S+)' -H '(content-type: application\/json)' -d '(\{.*\})' (http:\/\/\S+)$/.exec(
      line ?? '',
    );
  expect(curl, `no curl command after the suggestion in:\n${output}`).not.toBeNull();
  const [, authorization, contentType, body, url] = curl!;
  const header = (text: string) => {
    const colon = text.indexOf(': ');
    return [text.slice(0, colon), text.slice(colon + 2)] as const;
  };
  const answer = await fetch(url!, {
    method: 'POST',
    headers: Object.fromEntries([header(authorization!), header(contentType!)]),
    body,
  });
  return { status: answer.status, slug: (JSON.parse(body!) as { slug: string }).slug };
}

/**
 * The host app the demo prints: its page loads the element from the demo's server, and its mint
 * answers a portal URL (the token in the fragment only) whose page its own origin alone may frame.
 */
async function expectHostPage(more: () => string, url: string): Promise<void> {
  const host = /Host app: +(http:\/\/127\.0\.0\.1:\d+)\/ /.exec(more())?.[1];
  expect(host, `no host app link in:\n${more()}`).toBeDefined();
  await waitFor(more, /^host: host page: /m);
  const page = await (await fetch(`${host}/`)).text();
  expect(page).toContain(`<script type="module" src="${url}/dashboard/latchkey-portal.js">`);
  expect(page).toContain('<latchkey-portal');
  const minted = await fetch(`${host}/portal-url`, { method: 'POST' });
  expect(minted.status).toBe(201);
  const portal = new URL(((await minted.json()) as { url: string }).url);
  expect(portal.pathname).toBe('/dashboard/embed');
  expect(portal.searchParams.get('session')).toMatch(/^ps_/);
  expect(portal.hash).toMatch(/^#lkp_/);
  const embedded = await fetch(new URL(`${portal.pathname}${portal.search}`, url));
  expect(embedded.headers.get('content-security-policy')).toContain(`frame-ancestors ${host}`);
}

/** Waits until the demo's output matches. */
async function waitFor(output: () => string, pattern: RegExp, ms = 30_000): Promise<void> {
  const started = Date.now();
  while (!pattern.test(output())) {
    if (Date.now() - started > ms) throw new Error(`no ${pattern} in the demo's output:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('runs on PGlite, and a restart keeps the data and prints the same admin token', async () => {
  const first = await startDemo();
  expect(first.output).toContain(`Latchkey is running (Express adapter, PGlite in ${join(dir, 'pglite')})`);
  expect(first.token).toMatch(/^lk_[A-Za-z0-9_-]{43}$/);
  expect(statSync(join(dir, 'admin-token')).mode & 0o777).toBe(0o600);
  const headers = { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' };
  // The demo's receiver registers itself and verifies the delivery of its own registration...
  await waitFor(first.more, /^receiver: verifying with the public key whpk_\S+ only/m);
  await waitFor(first.more, /^receiver: verified audit_webhook_created evt_\w+/m);
  // ...then of every event, such as the project its printed suggestion makes, followed as printed.
  expect(await followSuggestion(first.output)).toEqual({ status: 201, slug: 'api' });
  await waitFor(
    first.more,
    /^receiver: verified project_created evt_\w+ \(seq \d+, by \w+, tree proof checked\)$/m,
  );
  expect(first.more()).not.toContain('refused a delivery');
  await expectHostPage(first.more, first.url);
  expect(first.more()).not.toMatch(/^receiver: witness:/m);
  const exited = once(first.child, 'exit');
  first.child.kill('SIGINT');
  await exited;

  const second = await startDemo();
  expect(second.token).toBe(first.token);
  // The audit key is kept beside the data too, so checkpoints stay verifiable across restarts.
  const auditKey = (output: string) => /Audit public key: +([A-Za-z0-9_-]{43})/.exec(output)?.[1];
  expect(auditKey(first.output)).toBeDefined();
  expect(auditKey(second.output)).toBe(auditKey(first.output));
  expect(statSync(join(dir, 'audit-key.pem')).mode & 0o777).toBe(0o600);
  // After the restart the suggestion names a project that does not exist yet either.
  expect(await followSuggestion(second.output)).toEqual({ status: 201, slug: 'api-2' });
  const listed = await fetch(`${second.url}/api/v2/organizations/acme/projects`, { headers });
  // The project the demo makes for the README's command-line steps, and the ones made above.
  expect(
    ((await listed.json()) as { projects: { slug: string }[] }).projects.map((p) => p.slug).sort(),
  ).toEqual(['api', 'api-2', 'web']);
  // A new receiver (new port) registers again, the old registration is disabled, and deliveries flow.
  await waitFor(second.more, /^receiver: verified audit_webhook_created/m);
  const hooks = (await (
    await fetch(`${second.url}/api/v2/organizations/acme/audit-webhooks`, { headers })
  ).json()) as {
    audit_webhooks: { status: string }[];
  };
  expect(hooks.audit_webhooks.map((w) => w.status).sort()).toEqual(['active', 'disabled']);
  second.child.kill('SIGINT');
  await once(second.child, 'exit');
}, 120_000);
