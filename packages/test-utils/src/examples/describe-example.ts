/**
 * The test every example server passes: start it exactly as a user would (`pnpm --dir examples/<name>
 * start`: built from source, then run with node), wait for its `listening on` line, talk to it over HTTP, then stop it.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { EXAMPLE_TOKEN } from './client.js';
import { describePersistence } from './example-persistence.js';
import { describeRefusals } from './example-refusals.js';
import { describeServing } from './example-serving.js';
import { describeShutdown } from './example-shutdown.js';
import { type StartedExample, startExample, stopExample } from './start-example.js';

/** Registers the example test for `examples/<name>`. */
export function describeExample(name: string): void {
  describe(`example server: ${name}`, () => {
    let started: StartedExample;

    beforeAll(async () => {
      started = await startExample(name, {
        PORT: '0',
        LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: EXAMPLE_TOKEN,
        LATCHKEY_WEBHOOK_ALLOW_HOSTS: 'localhost',
      });
    });
    afterAll(async () => {
      if (started) await stopExample(started.child, 'SIGKILL');
    });

    describeServing(() => started);
    describeShutdown(name);
    describeRefusals(name);
    describePersistence(name);
  });
}
