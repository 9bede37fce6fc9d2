/**
 * The HTTP conformance suite's PGlite run, and the proof that the embedded default fits a 512 MB
 * container: the whole suite, served by Express
 * over loopback on PGlite in a data directory (a new one, as an example server starts on), with the
 * driver's default settings, never takes this process (the suite, its core and PGlite together)
 * above 512 MB. The kernel's own peak (VmHWM) is checked at the end, so no spike between two
 * samples goes unseen; a watchdog also names the test during which the limit was first crossed.
 * A cgroup or `prlimit --as` is not used: the first is not writable everywhere this runs, and the
 * second counts the WebAssembly heap's address-space reservations, not memory.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latchkeyExpress } from '@latchkey/adapter-express';
import { describeHttpConformance, fetchTarget, running, type StartTarget } from '@latchkey/test-utils';
import express from 'express';
import { afterAll, afterEach, expect, it } from 'vitest';
import { createPostgresStore } from '../src/index.js';
import { pgliteDriver } from '../src/pglite.js';

const LIMIT_MB = 512;
const dir = mkdtempSync(join(tmpdir(), 'latchkey-memory-limit-'));

/** VmRSS and VmHWM of this process, in MB. */
function memory(): { rss: number; peak: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const mb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return { rss: mb('VmRSS'), peak: mb('VmHWM') };
}

let crossed: string | null = null;
let current = 'start-up';
const watchdog = setInterval(() => {
  if (crossed === null && memory().rss > LIMIT_MB) crossed = current;
}, 20);
watchdog.unref();
afterEach((context) => {
  current = `after "${context.task.name}"`;
});

const overExpress: StartTarget = async (core) => {
  const app = express();
  app.use(latchkeyExpress(core));
  const { base, close } = await running(app.listen(0, '127.0.0.1'));
  return fetchTarget(base, close);
};

describeHttpConformance({
  name: 'express on PGlite in a data directory, within 512 MB',
  start: overExpress,
  store: async () => createPostgresStore({ driver: await pgliteDriver(join(dir, 'data')) }),
});

it(`kept this process within ${LIMIT_MB} MB throughout`, async ({ annotate }) => {
  const { peak } = memory();
  await annotate(`peak RSS ${Math.round(peak)} MB`);
  expect(crossed, `RSS went above ${LIMIT_MB} MB first ${crossed}`).toBeNull();
  expect(peak).toBeLessThanOrEqual(LIMIT_MB);
});

afterAll(() => {
  clearInterval(watchdog);
  rmSync(dir, { recursive: true, force: true });
});
