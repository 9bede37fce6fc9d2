/**
 * The hono example's server within 512 MB: the HTTP conformance suite's PGlite run against the
 * example's server in a process of its own (built as its start script builds it, run with plain
 * node), on PGlite in a new data directory opened as the example opens it. A watchdog kills the
 * server, as a container's OOM killer would, if its RSS passes 512 MB, and the last test checks the
 * kernel's peak for it. The suite's harness (its large backups, its receivers) runs in this process
 * and is not counted; what it reads and writes on the server's store goes through the channel.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { latchkeyHono } from '@latchkey/adapter-hono';
import {
  describeHttpConformance,
  fetchTarget,
  remoteServer,
  running,
  type StartTarget,
} from '@latchkey/test-utils';
import { processBundle } from '@latchkey/test-utils/spawn';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';

/** The limit: the smallest container most platforms offer. */
const LIMIT_MB = 512;
const folder = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'latchkey-memory-limit-'));
const server = remoteServer({
  // Node's heap is held below the limit too, so a heap that would pass it fails as it would there.
  command: [process.execPath, ['--max-old-space-size=256', processBundle(folder, 'conformance-server')]],
  cwd: folder,
  env: { LATCHKEY_STORE: join(dir, 'data') },
  limitMb: LIMIT_MB,
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The other cores a few tests build (on the server's store, through the channel) are served here.
const overHono: StartTarget = async (core) => {
  const app = new Hono();
  app.route('/', latchkeyHono(core));
  const { base, close } = await running(
    serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server,
  );
  return fetchTarget(base, close);
};

describeHttpConformance({
  name: `the hono example on PGlite within ${LIMIT_MB} MB`,
  start: overHono,
  remote: server,
});

describe(`the hono example's server on PGlite, under the conformance suite`, () => {
  it(`stays within ${LIMIT_MB} MB of RSS at its peak`, () => {
    expect(server.killed(), server.output().slice(-2_000)).toBeNull();
    const peak = server.peakMb();
    console.log(
      `the hono example's server on PGlite peaked at ${Math.round(peak)} MB (limit ${LIMIT_MB} MB)`,
    );
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(LIMIT_MB);
  });
});
