/**
 * One benchmark server, run in its own process so it never shares an event loop with the load
 * generator. Usage (by run.ts, over an IPC channel): `server.ts <framework> <bare|adapter> <public key>`.
 *
 * Messages: it sends `{type:'ready', port}` once listening; it answers `{type:'cpu'}` with its
 * `process.cpuUsage()`; on `{type:'stop'}` it closes and exits (which also writes a `--cpu-prof`).
 */
import { createBarePush } from './bare.js';
import { createBenchCore } from './fixture.js';
import type { ControlMessage, Framework, ServerMessage } from './protocol.js';
import { SERVERS } from './servers/index.js';
import type { BenchServer, Listening } from './servers/listening.js';

async function main(): Promise<void> {
  const [framework = '', variant = '', publicKey = ''] = process.argv.slice(2);
  const server = SERVERS[framework as Framework] as BenchServer | undefined;
  const send = (message: ServerMessage) => process.send?.(message);
  let running: Listening;
  try {
    if (!server) throw new Error(`unknown framework ${framework}`);
    if (variant === 'bare' && server.bare) running = await server.bare(createBarePush(publicKey));
    else if (variant === 'adapter' && server.adapter)
      running = await server.adapter(await createBenchCore(publicKey));
    else throw new Error(`${framework} has no ${variant} server`);
  } catch (error) {
    send({ type: 'failed', error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  process.on('message', (message: ControlMessage) => {
    if (message.type === 'cpu') send({ type: 'cpu', usage: process.cpuUsage() });
    if (message.type === 'stop') void running.close().finally(() => process.exit(0));
  });
  // The runner died: never outlive it.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port: running.port });
}

await main();
