/** Latchkey served by Hono on Node: `pnpm --dir examples/hono start` (built, then run with node). */
import { createExampleCore, fail, stopOnSignals } from '@latchkey/example-shared/env';
import { listeningLine } from '@latchkey/example-shared/tls';
import { createHonoServer } from './app.js';

const { core, port, tls } = await createExampleCore();
// HTTPS when the environment gives a certificate and key (see @latchkey/example-shared/tls).
const server = createHonoServer(core, tls);
server.listen(port, '127.0.0.1', () => {
  console.log(listeningLine(server.address(), tls));
});
server.on('error', (error) => fail(`Cannot listen on 127.0.0.1:${port}: ${error.message}`));
stopOnSignals(server, () => new Promise((resolve) => server.close(resolve)), core);
