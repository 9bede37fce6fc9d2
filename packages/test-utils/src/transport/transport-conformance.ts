/**
 * The transport conformance suite: what happens on the wire before and around `core.handle`, for
 * every adapter served over a real loopback port exactly as the example servers serve it (with the
 * client-error helpers). The in-process target has no wire, so it does not run this suite.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Core, createCore } from '@latchkey/core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningServer } from '../http/harness/http-helpers.js';
import { describeKeyed, it, type SkipList } from '../keyed/keyed.js';
import { type RawResponse, rawExchange } from './raw-http.js';

const run = promisify(execFile);
const UPLOADS = fileURLToPath(new URL('./fixtures/oversized-uploads.mjs', import.meta.url));
const TOKEN = 'lk_transport_conformance_token_acme_000000000';
const PROJECTS = '/api/v2/organizations/acme/projects';

/** Starts the adapter's server around a bootstrapped core. */
export type StartServer = (core: Core) => Promise<RunningServer>;

function expectRawError(response: RawResponse, status: number, code: string): void {
  expect({ status: response.status, json: response.json }).toEqual({
    status,
    json: { error: { code, message: expect.any(String), status } },
  });
  expect(response.headers['content-type']).toMatch(/^application\/json/);
}

const request = (head: string, body = '') => `${head.split('\n').join('\r\n')}\r\n\r\n${body}`;

/** Options of {@link describeTransportConformance}. */
export interface TransportConformanceOptions {
  /** Names the adapter in the report. */
  name: string;
  start: StartServer;
  /** Tests this adapter skips, by name, each with the reason. */
  skip?: SkipList;
}

/** Registers the suite for one adapter. */
export function describeTransportConformance({ name, start, skip = {} }: TransportConformanceOptions): void {
  describeKeyed(`transport conformance: ${name}`, skip, () => {
    let server: RunningServer;
    const send = (raw: string | Buffer) => rawExchange(server.base, raw);

    beforeAll(async () => {
      const core: Core = createCore();
      await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
      await core.handle({
        method: 'POST',
        url: PROJECTS,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: '{"slug":"web"}',
      });
      server = await start(core);
    });

    afterAll(async () => {
      await server?.close();
    });

    it('routes an absolute-form target on its path only', async () => {
      const found = await send(
        request(
          `GET http://evil.example/api/v2/organizations/acme HTTP/1.1\nHost: evil.example\nAuthorization: Bearer ${TOKEN}\nConnection: close`,
        ),
      );
      expect(found.status).toBe(200);
      expect(found.json).toMatchObject({ slug: 'acme' });
      const missing = await send(
        request(
          `GET http://evil.example/api/v2/nothing HTTP/1.1\nHost: evil.example\nAuthorization: Bearer ${TOKEN}\nConnection: close`,
        ),
      );
      expectRawError(missing, 404, 'not_found');
    });

    it('answers every method Node parses, WebDAV included, with 405 and Allow on a path without it', async () => {
      const methods = http.METHODS.filter((m) => !['CONNECT', 'HEAD', 'GET', 'POST'].includes(m));
      expect(methods).toEqual(
        expect.arrayContaining(['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK']),
      );
      for (const method of methods) {
        // A Content-Type on every request: RFC 10008 lets a server refuse a QUERY without one.
        const response = await send(
          request(
            `${method} ${PROJECTS} HTTP/1.1\nHost: 127.0.0.1\nAuthorization: Bearer ${TOKEN}\nContent-Type: application/json\nConnection: close`,
          ),
        );
        expect({ method, status: response.status }).toEqual({ method, status: 405 });
        expectRawError(response, 405, 'method_not_allowed');
        expect(response.headers['allow']).toMatch(/GET.*POST|POST.*GET/);
      }
    });

    it('answers a 20 KiB header and a 20 KiB path with 431 request_header_fields_too_large', async () => {
      const header = await send(
        request(
          `GET ${PROJECTS} HTTP/1.1\nHost: 127.0.0.1\nX-Big: ${'a'.repeat(20 * 1024)}\nConnection: close`,
        ),
      );
      expectRawError(header, 431, 'request_header_fields_too_large');
      const path = await send(
        request(`GET ${PROJECTS}/${'p'.repeat(20 * 1024)} HTTP/1.1\nHost: 127.0.0.1\nConnection: close`),
      );
      expectRawError(path, 431, 'request_header_fields_too_large');
    });

    const framing: [string, string][] = [
      [
        'Content-Length abc',
        request(`POST ${PROJECTS} HTTP/1.1\nHost: 127.0.0.1\nContent-Length: abc`, '{}'),
      ],
      [
        'Content-Length with Transfer-Encoding',
        request(
          `POST ${PROJECTS} HTTP/1.1\nHost: 127.0.0.1\nContent-Length: 2\nTransfer-Encoding: chunked`,
          '2\r\n{}\r\n0\r\n\r\n',
        ),
      ],
      [
        'two different Content-Lengths',
        request(`POST ${PROJECTS} HTTP/1.1\nHost: 127.0.0.1\nContent-Length: 2\nContent-Length: 3`, '{} '),
      ],
      [
        'chunk size zz',
        request(
          `POST ${PROJECTS} HTTP/1.1\nHost: 127.0.0.1\nAuthorization: Bearer ${TOKEN}\nContent-Type: application/json\nTransfer-Encoding: chunked`,
          'zz\r\n{}\r\n0\r\n\r\n',
        ),
      ],
      [
        'a NUL in a header',
        request(`GET ${PROJECTS} HTTP/1.1\nHost: 127.0.0.1\nX-Nul: a\0b\nConnection: close`),
      ],
    ];
    for (const [what, raw] of framing) {
      it(`answers malformed framing (${what}) with 400 invalid_request in the error shape`, async () => {
        expectRawError(await send(raw), 400, 'invalid_request');
      });
    }

    it('answers a Host the server cannot build a URL from in the error shape, or normally', async () => {
      const response = await send(
        request(
          `GET /api/v2/organizations/acme HTTP/1.1\nHost: a/b\nAuthorization: Bearer ${TOKEN}\nConnection: close`,
        ),
      );
      if (response.status === 200) expect(response.json).toMatchObject({ slug: 'acme' });
      else expectRawError(response, 400, 'invalid_request');
    });

    it('answers 413 to Node fetch for an oversized body, 20 of 20, chunked and with Content-Length', async () => {
      // The client runs in a process of its own: in this one, its writes and the server's close
      // would take turns on one event loop and hide the reset a real client sees.
      const { stdout } = await run(process.execPath, [UPLOADS, server.base + PROJECTS, TOKEN, '20'], {
        timeout: 60_000,
      });
      expect(JSON.parse(stdout)).toEqual([
        ...Array(20).fill('chunked 413 payload_too_large'),
        ...Array(20).fill('content-length 413 payload_too_large'),
      ]);
    });
  });
}
