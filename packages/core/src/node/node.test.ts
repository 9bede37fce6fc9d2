import { once } from 'node:events';
import http, { type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../core.js';
import {
  createNodeHandler,
  errorResponse,
  isRequestAborted,
  sendCoreResponse,
  toCoreRequest,
} from '../faces/node.js';
import type { CoreRequest } from '../model/core-request.js';

const TOKEN = 'lk_node_bridge_test_token_0000000000000000000';
const servers: http.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(listener: RequestListener): Promise<number> {
  const server = http.createServer(listener);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function collect(res: IncomingMessage): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('error', reject);
    res.on('end', () =>
      resolve({
        status: res.statusCode!,
        headers: res.headers,
        text: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  });
}

/** Starts a request with full control over how the body is sent. */
function open(
  port: number,
  method: string,
  path: string,
  headers: http.OutgoingHttpHeaders = {},
  agent: http.Agent | false = false,
) {
  const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
  });
  return { req, response };
}

/** A listener that reads the request through the bridge and reports what it got. */
function echo(bodyLimit: number, seen: { request?: CoreRequest; error?: unknown }[]): RequestListener {
  return async (req, res) => {
    try {
      const request = await toCoreRequest(req, { bodyLimit });
      seen.push({ request });
      const body = request.body === undefined ? null : Buffer.from(request.body as Uint8Array);
      await sendCoreResponse(res, {
        status: 200,
        headers: { 'content-type': 'application/octet-stream', 'x-body': body === null ? 'none' : 'some' },
        body,
      });
    } catch (error) {
      seen.push({ error });
      if (!isRequestAborted(error)) await sendCoreResponse(res, errorResponse(error));
    }
  };
}

describe('createNodeHandler', () => {
  it('serves the core over node:http with the raw request', async () => {
    const core = createCore();
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const port = await listen(createNodeHandler(core));
    const base = `http://127.0.0.1:${port}`;
    const org = await fetch(`${base}/api/v2/organizations/acme`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(org.status).toBe(200);
    expect(await org.json()).toMatchObject({ slug: 'acme' });
    const created = await fetch(`${base}/api/v2/organizations/acme/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '  {"slug":"web"}\n',
    });
    expect(created.status).toBe(201);
    const missing = await fetch(`${base}/elsewhere`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'not_found', status: 404 } });
  });

  it('answers an oversized body with 413 before routing or authentication', async () => {
    const core = createCore({ bodyLimit: 64 });
    const port = await listen(createNodeHandler(core));
    const response = await fetch(`http://127.0.0.1:${port}/api/v2/organizations/acme/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'x'.repeat(100) }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      error: { code: 'payload_too_large', message: 'The request body exceeds 64 bytes.', status: 413 },
    });
  });
});

describe('toCoreRequest', () => {
  it('keeps the exact bytes, and has no body when the request has none', async () => {
    const seen: { request?: CoreRequest; error?: unknown }[] = [];
    const port = await listen(echo(1024, seen));
    const bytes = Uint8Array.from([0xff, 0x00, 0x7b, 0x20, 0x0a, 0xc3, 0x28]);
    const sent = await fetch(`http://127.0.0.1:${port}/raw?x=1`, { method: 'PUT', body: bytes });
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(bytes);
    expect(seen[0]!.request).toMatchObject({ method: 'PUT', url: '/raw?x=1' });
    const empty = await fetch(`http://127.0.0.1:${port}/raw`);
    expect(empty.headers.get('x-body')).toBe('none');
    expect(seen[1]!.request!.body).toBeUndefined();
  });

  it('refuses a Content-Length over the cap without reading the body', async () => {
    const seen: { request?: CoreRequest; error?: unknown }[] = [];
    const port = await listen(echo(1000, seen));
    const { req, response } = open(port, 'POST', '/', { 'content-length': '5000' });
    req.flushHeaders();
    // Nothing of the body is sent yet: the answer must come from the header alone.
    const res = await collect(await response);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'payload_too_large', status: 413 } });
    req.destroy();
  });

  it('stops a chunked body as soon as it passes the cap and still lets the client read the 413', async () => {
    const seen: { request?: CoreRequest; error?: unknown }[] = [];
    const port = await listen(echo(10_000, seen));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const { req, response } = open(port, 'POST', '/', { 'transfer-encoding': 'chunked' }, agent);
    req.write(Buffer.alloc(6000, 1));
    req.write(Buffer.alloc(6000, 2));
    // The answer arrives while the upload is still open: the bridge did not wait for the end.
    const res = await collect(await response);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toEqual({
      error: { code: 'payload_too_large', message: 'The request body exceeds 10000 bytes.', status: 413 },
    });
    // The rest is drained, so the upload finishes and the kept-alive connection serves the next request.
    req.end(Buffer.alloc(50_000, 3));
    await once(req, 'finish');
    const next = open(port, 'POST', '/', { 'content-length': '2' }, agent);
    next.req.end('ok');
    const second = await collect(await next.response);
    expect(second.status).toBe(200);
    expect(second.text).toBe('ok');
    expect(seen).toHaveLength(2);
    agent.destroy();
  });

  it('accepts a chunked body up to exactly the cap', async () => {
    const seen: { request?: CoreRequest; error?: unknown }[] = [];
    const port = await listen(echo(10_000, seen));
    const { req, response } = open(port, 'POST', '/', { 'transfer-encoding': 'chunked' });
    req.write(Buffer.alloc(4000, 1));
    req.end(Buffer.alloc(6000, 2));
    const res = await collect(await response);
    expect(res.status).toBe(200);
    expect((seen[0]!.request!.body as Uint8Array).length).toBe(10_000);
  });

  it('rejects, instead of hanging, when the client disconnects mid-body', async () => {
    const seen: { request?: CoreRequest; error?: unknown }[] = [];
    let settled!: () => void;
    const done = new Promise<void>((resolve) => {
      settled = resolve;
    });
    const listener = echo(1_000_000, seen);
    const port = await listen(async (req, res) => {
      await listener(req, res);
      settled();
    });
    const { req, response } = open(port, 'POST', '/', { 'content-length': '100000' });
    response.catch(() => {});
    req.write(Buffer.alloc(1000));
    await sleep(50);
    req.destroy();
    await done;
    expect(seen).toHaveLength(1);
    expect(isRequestAborted(seen[0]!.error)).toBe(true);
  });

  it('answers 400 when another middleware already consumed the body', async () => {
    const port = await listen(async (req, res) => {
      for await (const _ of req) {
        // A body parser that ran first.
      }
      try {
        await toCoreRequest(req, { bodyLimit: 1000 });
        res.end('read');
      } catch (error) {
        await sendCoreResponse(res, errorResponse(error));
      }
    });
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{"a":1}' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toMatch(/before any body parser/);
  });
});

describe('sendCoreResponse', () => {
  it('sets Content-Length for string and byte bodies', async () => {
    const port = await listen(async (req, res) => {
      await sendCoreResponse(res, {
        status: 201,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'x-kind': req.url! },
        body: req.url === '/text' ? 'héllo' : new Uint8Array([1, 2, 3]),
      });
    });
    const text = await fetch(`http://127.0.0.1:${port}/text`);
    expect(text.status).toBe(201);
    expect(text.headers.get('content-length')).toBe('6');
    expect(await text.text()).toBe('héllo');
    const bytes = await fetch(`http://127.0.0.1:${port}/bytes`);
    expect(bytes.headers.get('content-length')).toBe('3');
    expect(bytes.headers.get('x-kind')).toBe('/bytes');
  });

  it('streams an async iterable with backpressure', async () => {
    const chunk = Buffer.alloc(1 << 20, 0x61);
    const total = 64;
    let produced = 0;
    const port = await listen(async (_req, res) => {
      async function* body() {
        for (let i = 0; i < total; i++) {
          produced++;
          yield i % 2 === 0 ? chunk : chunk.toString('latin1');
        }
      }
      await sendCoreResponse(res, { status: 200, headers: { 'content-type': 'text/plain' }, body: body() });
    });
    const { req, response } = open(port, 'GET', '/');
    req.end();
    const res = await response;
    expect(res.headers['transfer-encoding']).toBe('chunked');
    res.pause();
    await sleep(200);
    // A paused reader holds the producer back: only what fits in the socket buffers is produced.
    expect(produced).toBeLessThan(total / 2);
    let received = 0;
    res.on('data', (c: Buffer) => {
      received += c.length;
    });
    res.resume();
    await once(res, 'end');
    expect(received).toBe(total * chunk.length);
    expect(produced).toBe(total);
  });

  it('stops producing and closes the iterator when the client goes away', async () => {
    let produced = 0;
    let closed!: () => void;
    const finished = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const port = await listen(async (_req, res) => {
      async function* endless() {
        try {
          while (true) {
            produced++;
            yield Buffer.alloc(64 * 1024, 0x62);
          }
        } finally {
          closed();
        }
      }
      await sendCoreResponse(res, { status: 200, headers: {}, body: endless() });
    });
    const { req, response } = open(port, 'GET', '/');
    req.end();
    const res = await response;
    await once(res, 'data');
    res.destroy();
    await finished;
    const after = produced;
    await sleep(50);
    expect(produced).toBe(after);
  });

  it('answers 500 internal_error when the stream fails before its first chunk', async () => {
    const port = await listen(async (_req, res) => {
      // biome-ignore lint/correctness/useYield: fails before producing anything
      async function* failing(): AsyncGenerator<string> {
        throw new Error('database down: secret detail');
      }
      await sendCoreResponse(res, {
        status: 200,
        headers: { 'content-type': 'application/x-ndjson' },
        body: failing(),
      });
    });
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'internal_error', status: 500 } });
    expect(text).not.toContain('secret detail');
  });

  it('cuts the connection when the stream fails midway, so the body is visibly incomplete', async () => {
    const port = await listen(async (_req, res) => {
      async function* failing() {
        yield '{"n":1}\n';
        throw new Error('boom');
      }
      await sendCoreResponse(res, { status: 200, headers: {}, body: failing() });
    });
    // Either the headers never make it or the body read fails: never a clean, complete 200.
    await expect(fetch(`http://127.0.0.1:${port}/`).then((r) => r.text())).rejects.toThrow();
  });
});
