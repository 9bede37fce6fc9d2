/**
 * A TCP proxy a test controls, to cut a process off from its database (or any TCP service) and give
 * it back, without touching the process or the service: what Toxiproxy's `down` does, in-process.
 *
 * `cut()` resets every open connection on the client's side (the client sees ECONNRESET at once) and
 * ends it on the service's side after whatever the client already sent (so PostgreSQL sees the
 * client leave, and rolls back an open transaction); until `restore()`, new connections are accepted
 * and reset at once. `cutWhen(match)` cuts right after forwarding the first client chunk that
 * matches, before any answer to it comes back: a request that reached the service whose reply is
 * lost (a COMMIT, say).
 */
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** Options of {@link createTcpProxy}. */
export interface TcpProxyOptions {
  /** Where connections are forwarded. */
  target: { host: string; port: number };
}

/** A running proxy on 127.0.0.1. */
export interface TcpProxy {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /** Connections forwarded right now. */
  readonly open: number;
  /** True between `cut()` and `restore()`. */
  readonly isCut: boolean;
  /** Resets every open connection and refuses new ones until {@link TcpProxy.restore}. */
  cut(): void;
  /**
   * Arms a cut: the first chunk a client sends that `match` accepts is forwarded to the service,
   * then everything is cut as by {@link TcpProxy.cut} before any answer reaches the client.
   */
  cutWhen(match: (chunk: Buffer) => boolean): void;
  /** Accepts and forwards connections again. */
  restore(): void;
  /** Cuts everything and stops listening. */
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
}

/** Resets a socket (RST) where Node can, else destroys it. */
function reset(socket: Socket): void {
  if (socket.destroyed) return;
  if (typeof socket.resetAndDestroy === 'function' && socket.readyState !== 'opening') {
    socket.resetAndDestroy();
  } else {
    socket.destroy();
  }
}

/** Starts a proxy on 127.0.0.1 (a free port) that forwards to `options.target`. */
export async function createTcpProxy(options: TcpProxyOptions): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let isCut = false;
  let trigger: ((chunk: Buffer) => boolean) | null = null;

  function cutAll(): void {
    isCut = true;
    trigger = null;
    for (const pair of pairs) {
      // Forwarding stops first, so no answer already on its way reaches the client.
      pair.upstream.removeAllListeners('data');
      reset(pair.client);
      // Ended, not reset: the service still reads what it was sent, then sees the client leave.
      pair.upstream.end();
      // Never kept waiting on a service that does not close its side.
      setTimeout(() => pair.upstream.destroy(), 1_000).unref();
    }
    pairs.clear();
  }

  const server: Server = createServer((client) => {
    client.on('error', () => {});
    if (isCut) {
      reset(client);
      return;
    }
    const upstream = createConnection(options.target);
    upstream.on('error', () => {});
    const pair: Pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      if (!pairs.delete(pair)) return;
      client.destroy();
      upstream.destroy();
    };
    client.on('close', drop);
    upstream.on('close', drop);
    // Data is written by hand rather than piped, so a chunk can be looked at before a cut; each side
    // pauses while the other's buffer is full.
    client.on('data', (chunk: Buffer) => {
      if (!pairs.has(pair)) return;
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
      if (trigger?.(chunk)) cutAll();
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!client.write(chunk)) {
        upstream.pause();
        client.once('drain', () => upstream.resume());
      }
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');

  return {
    port: address.port,
    get open() {
      return pairs.size;
    },
    get isCut() {
      return isCut;
    },
    cut: cutAll,
    cutWhen(match) {
      trigger = match;
    },
    restore() {
      isCut = false;
    },
    async close() {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
