/**
 * The server's side of a remote run of the HTTP conformance suite: a server program under test (an
 * example's, spawned by the harness with an IPC channel) calls this with its store and a way to
 * serve a core. On the harness's `init` it builds the suite's core on that store, with the suite's
 * options and keys, serves it, and answers the harness's calls: the store's repositories and
 * transactions, the core's clock, failures and metrics. Free of vitest, so the program bundles it.
 */
import { inspect } from 'node:util';
import { type Core, createCore } from '@latchkey/core';
import type { LatchkeyStore } from '@latchkey/core/store';
import type { Transport } from '@latchkey/core/webhooks';
import { conformanceCoreOptions } from '../conformance-core.js';
import { conformanceTransport } from '../harness/fake-network.js';
import { type RemoteHello, type RemoteRequest, toRemoteError } from './protocol.js';
import { storeCalls } from './store-calls.js';

/** Serves `core` over HTTP and resolves with its base URL (`http://127.0.0.1:<port>`). */
export type ServeCore = (core: Core) => Promise<string>;

/** The core's state the harness reads and sets: its clock, its failures, its deliveries. */
function coreSide() {
  const state = { pinnedMs: null as number | null, failures: [] as { message: string; meta: string }[] };
  const fake = conformanceTransport();
  const transport: Transport = {
    async send(request) {
      const answer = await fake.send(request);
      // Told before the answer that caused it is out, so the harness has it when it reads that answer.
      for (const sent of fake.sent.splice(0)) process.send!({ sent });
      return answer;
    },
    close: () => fake.close(),
  };
  return { state, transport };
}

/** Answers the harness over this process's IPC channel until it disconnects; then the process exits. */
export function answerConformanceHarness(store: LatchkeyStore, serve: ServeCore): void {
  if (!process.send) throw new Error('answerConformanceHarness needs an IPC channel (spawned with "ipc")');
  const calls = storeCalls(store);
  const { state, transport } = coreSide();
  let core: Core | null = null;
  const ready = () => {
    if (!core) throw new Error('the harness has not sent init');
    return core;
  };

  async function answer(request: RemoteRequest): Promise<unknown> {
    switch (request.op) {
      case 'init': {
        core = createCore({
          store,
          ...conformanceCoreOptions(request.keys, {
            transport,
            now: () => state.pinnedMs ?? Date.now(),
            onError: (message, meta) => state.failures.push({ message, meta: inspect(meta, { depth: 4 }) }),
          }),
        });
        const hello: RemoteHello = {
          url: await serve(core),
          serialTransactions: store.serialTransactions === true,
          repositories: calls.repositories,
          routes: core.routes.map((r) => ({
            method: r.method,
            path: r.path,
            operationId: r.operationId,
            auth: r.auth,
          })),
        };
        return hello;
      }
      case 'call':
        return calls.call(request.tx, request.repository, request.method, request.args);
      case 'status':
        return store.status ? store.status() : null;
      case 'begin':
        return calls.begin();
      case 'commit':
        return calls.end(request.tx, true);
      case 'rollback':
        return calls.end(request.tx, false);
      case 'clock':
        state.pinnedMs = request.pinnedMs;
        return null;
      case 'failures':
        return state.failures.splice(0);
      case 'metricsText':
        return ready().metricsText();
      case 'bootstrap':
        return ready().bootstrap(request.options);
      case 'sync':
        return null;
    }
  }

  process.on('message', (request: RemoteRequest) => {
    answer(request).then(
      (value) => {
        try {
          process.send!({ id: request.id, ok: true, value });
        } catch (error) {
          process.send!({ id: request.id, ok: false, error: toRemoteError(error) });
        }
      },
      (error: unknown) => process.send!({ id: request.id, ok: false, error: toRemoteError(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
