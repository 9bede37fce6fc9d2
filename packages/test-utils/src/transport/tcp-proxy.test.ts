import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** A client of the proxy that collects what comes back and how the connection ended. */
async function connect(port: number) {
  const socket = createConnection({ host: '127.0.0.1', port });
  let received = '';
  let failure: string | null = null;
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('utf8');
  });
  socket.on('error', (error: NodeJS.ErrnoException) => {
    failure = error.code ?? error.message;
  });
  // Not events.once: that rejects on 'error', and a reset is what some tests expect.
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await once(socket, 'connect');
  return {
    socket,
    closed,
    received: () => received,
    failure: () => failure,
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const began = Date.now();
  while (!condition()) {
    if (Date.now() - began > 5_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the TCP proxy tests cut databases with', () => {
  let service: Server;
  let proxy: TcpProxy;
  // What the service received, per connection, and whether each connection ended.
  const seen: { text: string; ended: boolean }[] = [];
  const sockets = new Set<Socket>();

  beforeEach(async () => {
    seen.length = 0;
    sockets.clear();
    // An upper-casing echo service.
    service = createServer((socket: Socket) => {
      const record = { text: '', ended: false };
      seen.push(record);
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('data', (chunk: Buffer) => {
        record.text += chunk.toString('utf8');
        socket.write(chunk.toString('utf8').toUpperCase());
      });
      socket.on('end', () => {
        record.ended = true;
        socket.end();
      });
    });
    service.listen(0, '127.0.0.1');
    await once(service, 'listening');
    const port = (service.address() as { port: number }).port;
    proxy = await createTcpProxy({ target: { host: '127.0.0.1', port } });
  });

  afterEach(async () => {
    await proxy.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => service.close(resolve));
  });

  it('forwards both ways', async () => {
    const client = await connect(proxy.port);
    client.socket.write('hello');
    await until(() => client.received() === 'HELLO', 'the echo');
    expect(proxy.open).toBe(1);
    client.socket.end();
    await client.closed;
    await until(() => proxy.open === 0, 'the pair to close');
    expect(seen.map((s) => s.text)).toEqual(['hello']);
  });

  it('cut() resets open connections, ends them at the service, and refuses new ones until restore()', async () => {
    const client = await connect(proxy.port);
    client.socket.write('one');
    await until(() => client.received() === 'ONE', 'the echo');
    proxy.cut();
    await client.closed;
    expect(client.failure()).toBe('ECONNRESET');
    await until(() => seen[0]!.ended, 'the service to see the client leave');
    expect(proxy.isCut).toBe(true);
    expect(proxy.open).toBe(0);

    // While cut: a new connection is accepted, then reset before anything reaches the service.
    const refused = createConnection({ host: '127.0.0.1', port: proxy.port });
    const errors: string[] = [];
    refused.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    refused.write('lost');
    await new Promise((resolve) => refused.once('close', resolve));
    expect(seen).toHaveLength(1);

    proxy.restore();
    const again = await connect(proxy.port);
    again.socket.write('two');
    await until(() => again.received() === 'TWO', 'the echo after restore');
    again.socket.destroy();
  });

  it('cutWhen() forwards the matching chunk, then cuts before its answer comes back', async () => {
    const client = await connect(proxy.port);
    client.socket.write('first');
    await until(() => client.received() === 'FIRST', 'the first echo');
    proxy.cutWhen((chunk) => chunk.includes('COMMIT'));
    client.socket.write('COMMIT');
    await client.closed;
    // The service got it (and answered), but the answer never reached the client.
    await until(() => seen[0]!.text === 'firstCOMMIT', 'the service to receive the chunk');
    expect(client.received()).toBe('FIRST');
    expect(client.failure()).toBe('ECONNRESET');
    expect(proxy.isCut).toBe(true);
    proxy.restore();
  });
});
