/**
 * What the browser tests stand on: Debian's Chromium driven by playwright-core, a real example
 * server started as a user would, a real HTTPS receiver on loopback (its certificate trusted by the
 * server only through NODE_EXTRA_CA_CERTS) whose answers a test can turn, an axe-core scan, and
 * screenshots under `test-output/`.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeLoopbackCertificate } from '@latchkey/test-utils/loopback-certificate';
import { startExample, stopExample } from '@latchkey/test-utils/spawn';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const OUTPUT = fileURLToPath(new URL('../test-output/', import.meta.url));

/** Why the browser tests cannot run here, or null. In CI a missing browser is a failure, not a skip. */
export function missingBrowser(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `no Chromium at ${CHROMIUM} (Debian: apt-get install chromium; or set CHROMIUM_PATH)`;
  if (process.env['CI']) throw new Error(`The dashboard's browser tests need a browser: ${reason}.`);
  return reason;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
}

/** One request the receiver got. */
export interface Received {
  path: string;
  body: string;
  headers: Record<string, string>;
}

/** An HTTPS receiver on loopback answering 204, or 500 while `failing` is set. */
export async function startReceiver() {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-dashboard-'));
  const certificate = makeLoopbackCertificate(dir);
  const received: Received[] = [];
  const state = { failing: false };
  const server: Server = createServer(
    { key: certificate.key, cert: certificate.cert },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          path: request.url ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
          headers: request.headers as Record<string, string>,
        });
        response.writeHead(state.failing ? 500 : 204).end();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    certFile: certificate.certFile,
    received,
    state,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The Express example on a fresh in-memory store, delivering to `receiver` with a fast retry
 * schedule; `env` adds to its environment.
 */
export async function startServer(token: string, certFile: string, env: Record<string, string> = {}) {
  const started = await startExample(
    'express',
    {
      PORT: '0',
      LATCHKEY_STORE: 'memory',
      LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: token,
      LATCHKEY_WEBHOOK_ALLOW_HOSTS: 'localhost',
      LATCHKEY_RETRY_SCHEDULE: '0,0.2,0.2',
      NODE_EXTRA_CA_CERTS: certFile,
      ...env,
    },
    'bundle',
  );
  const api = async (method: string, path: string, body?: unknown, as = token) => {
    const response = await fetch(`${started.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : null) as Record<string, unknown> };
  };
  return { ...started, api, stop: () => stopExample(started.child, 'SIGKILL') };
}

/** Runs axe-core in the page (or a frame); fails on any serious or critical violation, naming each. */
export async function expectAccessible(page: Page | Frame, screen: string): Promise<void> {
  const source = require_('axe-core/axe.min.js');
  // Evaluated through the DevTools protocol, so the page's CSP (no inline script) stays on.
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `axe on ${screen}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

const require_ = (id: string) => readFileSync(createRequire(import.meta.url).resolve(id), 'utf8');

/** Saves a screenshot (the whole page unless `fullPage` is false) as `test-output/<name>.png`. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(OUTPUT, { recursive: true });
  const path = join(OUTPUT, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/**
 * Copies a screenshot into the repository's `docs/` as `name.png`, only when
 * LATCHKEY_DOCS_SCREENSHOTS=1: a plain test run leaves the working tree as it found it.
 */
export function toDocs(path: string, name: string): void {
  if (process.env['LATCHKEY_DOCS_SCREENSHOTS'] !== '1') return;
  const docs = fileURLToPath(new URL('../../../docs/', import.meta.url));
  mkdirSync(docs, { recursive: true });
  copyFileSync(path, join(docs, `${name}.png`));
}

/** Waits until `condition` holds (polling), or fails with `what`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
  const began = Date.now();
  while (!(await condition())) {
    if (Date.now() - began > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
