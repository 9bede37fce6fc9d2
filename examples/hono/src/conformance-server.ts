/**
 * A test program: the hono example's server on the store `LATCHKEY_STORE` names (opened as the
 * example opens it: PGlite in a directory with the driver's defaults), serving the HTTP conformance
 * suite's core instead of one built from the environment, so the suite runs against it in a process
 * of its own (`memory-limit.test.ts`). It answers the suite's harness over its IPC channel (see
 * `@latchkey/test-utils/remote`) and exits when the harness lets go of it.
 */
import type { AddressInfo } from 'node:net';
import { openExampleStore } from '@latchkey/example-shared/store';
import { answerConformanceHarness } from '@latchkey/test-utils/remote';
import { createHonoServer } from './app.js';

const opened = await openExampleStore(process.env['LATCHKEY_STORE'] || 'memory');
answerConformanceHarness(opened.store, async (core) => {
  const server = createHonoServer(core, null);
  // The harness's event loop is held for seconds at a time (making RSA-4096 keys, building large
  // backups), so it cannot close an idle connection before the server's 5 s keep-alive ends it and
  // would send its next request on a closed socket; the example's own server keeps Node's default.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
