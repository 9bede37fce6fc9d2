/**
 * The suite's harness connected to a spawned server: the core the tests read (`ctx.core`) is the
 * server's, seen through the channel (its store, routes, metrics and bootstrap), and every request
 * reaches the server over its real port. Two orderings make it the same suite as in process: a
 * clock the test pins reaches the server before its next request, and every delivery the server's
 * fake transport received is in `ctx.webhookTransport.sent` once the answer that caused it is.
 */
import type { Core } from '@latchkey/core';
import type { ConformanceKeys } from '../conformance-core.js';
import type { ConformanceContext } from '../harness/context.js';
import { fetchTarget, type HttpTarget } from '../harness/http-target.js';
import type { RemoteHello } from './protocol.js';
import type { RemoteServer } from './remote-server.js';
import { remoteStore } from './remote-store.js';

/** What the suite takes from the server: its core, the target that reaches it, its failures. */
export interface RemoteSuite {
  core: Core;
  target: HttpTarget;
  /** What the server's core logged as failed since the last call. */
  failures(): Promise<unknown[]>;
}

/** Starts `server`, builds the suite's core in it with `keys`, and connects `ctx`'s clock and transport. */
export async function connectRemoteSuite(
  server: RemoteServer,
  keys: ConformanceKeys,
  ctx: ConformanceContext,
): Promise<RemoteSuite> {
  const ask = await server.start((sent) => ctx.webhookTransport.sent.push(sent));
  const hello = await ask<RemoteHello>({ op: 'init', keys });
  let pinnedMs = ctx.clock.pinnedMs;
  let pinned: Promise<unknown> = Promise.resolve();
  Object.defineProperty(ctx.clock, 'pinnedMs', {
    configurable: true,
    get: () => pinnedMs,
    set: (ms: number | null) => {
      pinnedMs = ms;
      pinned = ask({ op: 'clock', pinnedMs: ms });
    },
  });
  const core = {
    store: remoteStore(ask, hello),
    routes: hello.routes,
    metricsText: () => ask<string>({ op: 'metricsText' }),
    bootstrap: (options: { organization: string; user: string; token: string }) =>
      ask({ op: 'bootstrap', options }),
  } as unknown as Core;
  const http = fetchTarget(hello.url, () => server.stop());
  return {
    core,
    target: {
      async send(request) {
        await pinned;
        const answer = await http.send(request);
        // The deliveries the server told of before it answered are in by the time this returns.
        await ask({ op: 'sync' });
        return answer;
      },
      close: http.close,
    },
    failures: () => ask<unknown[]>({ op: 'failures' }),
  };
}
