/** The common shape of every benchmark server, whatever framework it runs. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Core } from '@latchkey/core';
import type { createBarePush } from '../bare.js';

/** A server listening on 127.0.0.1 on a port of the system's choosing. */
export interface Listening {
  port: number;
  close(): Promise<void>;
}

/** What a server module of the benchmark exports: how to start it around the bare handler or a core. */
export interface BenchServer {
  bare?(push: ReturnType<typeof createBarePush>): Promise<Listening>;
  adapter?(core: Core): Promise<Listening>;
}

/** Waits until a Node server listens and wraps it. */
export async function listening(server: Server): Promise<Listening> {
  if (!server.listening) {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  }
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
