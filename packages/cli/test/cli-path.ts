import { fileURLToPath } from 'node:url';

/**
 * The CLI's sources bundled into one file by the test run's global setup (`scripts/test/cli-bundle.ts`):
 * each run is one plain Node process. The launcher users run, `bin/latchkey.mjs`, has its own tests
 * (`token-and-terminal.test.ts`) and the README test runs it too.
 */
export const CLI = fileURLToPath(new URL('../node_modules/.cache/latchkey-cli.mjs', import.meta.url));
