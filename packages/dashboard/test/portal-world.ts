/**
 * The world of the portal's browser tests: the Express example serving Latchkey on one loopback
 * origin, the demo's host app (`scripts/demo-host.ts`) on another, which mints portal sessions with
 * an admin token and frames them with `<latchkey-portal>`, and everything the browser sent (each
 * request's URL and Referer, as an access log records them) and the host page saw (the URL each
 * mint answered, so a test knows the token it must never find).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stopExample } from '@latchkey/test-utils/spawn';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { startServer, until } from './harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A free loopback port (the host's, which Latchkey must allow before either starts). */
export async function freePort(): Promise<number> {
  const probe = createHttpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The demo's host app, started as the demo starts it. */
export async function startHost(latchkeyUrl: string, token: string, port: number) {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child: ChildProcess = spawn(
    process.execPath,
    ['--conditions=@latchkey/source', '--import', tsx, 'scripts/demo-host.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, LATCHKEY_URL: latchkeyUrl, LATCHKEY_TOKEN: token, HOST_PORT: String(port) },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await until(
    () => /^host page: http:\/\/127\.0\.0\.1:\d+\/$/m.test(output),
    `the host page:\n${output}`,
    45_000,
  );
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop: () => stopExample(child, 'SIGKILL') };
}

/** A page on yet another origin that frames `src` in a plain iframe (not an allowed origin). */
export async function startStranger(src: () => string) {
  const server: Server = createHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Elsewhere</title><iframe title="portal" src="${src()}"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The Latchkey server allowing `hostPort`'s origin to frame its portal, and the host app itself. */
export async function startPortalWorld(token: string, certFile: string) {
  const hostPort = await freePort();
  const server = await startServer(token, certFile, {
    LATCHKEY_PORTAL_ORIGINS: `http://127.0.0.1:${hostPort}`,
  });
  const host = await startHost(server.url, token, hostPort);
  return { server, host };
}

/** What the browser sent and the host's page was handed, for one context. */
export function watchTraffic(context: BrowserContext) {
  const sent: string[] = [];
  const minted: string[] = [];
  context.on('request', (request) => {
    const referer = request.headers()['referer'] ?? '';
    sent.push(`${request.method()} ${request.url()} referer=${referer}`);
  });
  context.on('response', async (response) => {
    if (!response.url().includes('/portal-url')) return;
    const body = (await response.json().catch(() => ({}))) as { url?: string };
    if (body.url) minted.push(body.url);
  });
  return {
    sent,
    minted,
    /** The token and session id of the last URL the host was handed. */
    last() {
      const url = new URL(minted.at(-1) ?? 'http://x/');
      return { token: url.hash.slice(1), session: url.searchParams.get('session') ?? '' };
    },
  };
}

/** The portal's frame inside the host page, once it has loaded the embedded page. */
export async function portalFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  await until(() => {
    found = page.frames().find((frame) => frame.url().includes('/dashboard/embed'));
    return found !== undefined;
  }, 'the portal frame');
  return found!;
}
