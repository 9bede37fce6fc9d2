/**
 * The example with `OTEL_EXPORTER_OTLP_ENDPOINT` set exports its spans over OTLP/HTTP (JSON) to a
 * collector on loopback: the request span is named by its route template, continues the caller's
 * `traceparent`, and carries no token.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startExample, stopExample } from '@latchkey/test-utils/spawn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TOKEN = 'lk_example_telemetry_token_00000000000000000';
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

interface OtlpSpan {
  name: string;
  traceId: string;
  parentSpanId?: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

describe('example server: hono, exporting traces over OTLP', () => {
  const bodies: string[] = [];
  let collector: Server;
  let started: Awaited<ReturnType<typeof startExample>>;

  beforeAll(async () => {
    collector = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        if (request.url === '/v1/traces') bodies.push(body);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    started = await startExample(
      'hono',
      {
        PORT: '0',
        LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
      'node',
    );
  });
  afterAll(async () => {
    if (started) await stopExample(started.child, 'SIGKILL');
    await new Promise((resolve) => collector?.close(resolve));
  });

  it("sends the request span, named by its route, in the caller's trace, without the token", async () => {
    const answer = await fetch(`${started.url}/api/v2/organizations/acme`, {
      headers: { authorization: `Bearer ${TOKEN}`, traceparent: `00-${TRACE_ID}-b7ad6b7169203331-01` },
    });
    expect(answer.status).toBe(200);
    const began = Date.now();
    const spans = (): OtlpSpan[] =>
      bodies.flatMap((body) =>
        (
          JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }
        ).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
      );
    while (!spans().some((s) => s.traceId === TRACE_ID) && Date.now() - began < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const request = spans().find((s) => s.traceId === TRACE_ID);
    expect(request, started.output()).toBeDefined();
    expect(request!.name).toBe('GET /api/v2/organizations/{organization}');
    expect(request!.parentSpanId).toBe('b7ad6b7169203331');
    const attributes = Object.fromEntries(
      request!.attributes.map((a) => [a.key, a.value.stringValue ?? a.value.intValue]),
    );
    expect(attributes).toMatchObject({
      'http.route': '/api/v2/organizations/{organization}',
      'latchkey.organization': 'acme',
    });
    expect(Number(attributes['http.response.status_code'])).toBe(200);
    expect(bodies.join('\n')).not.toContain(TOKEN);
  });
});
