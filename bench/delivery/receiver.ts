/**
 * The loopback HTTPS receiver of `bench:delivery`, in a process of its own: keep-alive, answers 204
 * to every POST once its body is read (or DELAY_MS after that, to stand for a receiver that does
 * some work of its own before answering). Told by the parent how many deliveries to expect, it reports
 * the time between the first and the last arrival (so process start-up is not measured).
 *
 * Env: KEY_FILE, CERT_FILE, DELAY_MS (default 0). IPC: sends `{port}` once listening; takes `{expect: n}`; sends
 * `{count, seconds, cpu}` when n have arrived (`cpu`: its CPU seconds since `{expect}`).
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ownCpuSeconds } from './cpu.js';

const delayMs = Number(process.env['DELAY_MS'] ?? 0);
let expected = 0;
let count = 0;
let first = 0;
/** CPU seconds used when the deliveries were announced. */
let cpuAtExpect = 0;
const server = createServer(
  {
    key: readFileSync(process.env['KEY_FILE']!),
    cert: readFileSync(process.env['CERT_FILE']!),
    keepAliveTimeout: 60_000,
  },
  (request, response) => {
    request.resume();
    request.on('end', () => {
      if (delayMs > 0) setTimeout(() => answer(response), delayMs);
      else answer(response);
    });
  },
);
/** Answers a delivery and counts its arrival. */
function answer(response: ServerResponse): void {
  response.writeHead(204).end();
  if (expected === 0) return;
  if (count === 0) first = performance.now();
  count++;
  if (count === expected) {
    process.send!({
      count,
      seconds: (performance.now() - first) / 1000,
      cpu: ownCpuSeconds() - cpuAtExpect,
    });
    expected = 0;
  }
}
process.on('message', (message: { expect?: number }) => {
  if (message.expect) {
    expected = message.expect;
    count = 0;
    cpuAtExpect = ownCpuSeconds();
  }
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
