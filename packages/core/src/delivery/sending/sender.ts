/**
 * Sending one signed delivery over HTTPS with undici (7.x: the last major that runs on Node 20):
 * keep-alive connections per receiver, a timeout per attempt (connect to end of response), redirects
 * never followed, and the SSRF guard inside the connection's DNS lookup, so the address connected
 * to is the address vetted. Every outcome is classified as `last_error` reports it.
 */
import { EventEmitter } from 'node:events';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { DeliveryError } from '../../model/model.js';
import { parseRetryAfter } from '../retry-schedule.js';
import { type ClientCredentials, createCertificateAgents } from './client-certificate-agents.js';
import { gatedConnector } from './handshake-gate.js';
import { type AllowHosts, guardedLookup, isGlobalAddress, type ResolveHost, targetHost } from './ssrf.js';
import { createTlsAlerts } from './tls-alerts.js';

/** What one attempt came to. */
export interface SendResult {
  /** A 2xx answer. */
  ok: boolean;
  /** The receiver's status, when it answered. */
  statusCode: number | null;
  /** From the start of the request to the end of the response (or the failure), in milliseconds. */
  latencyMs: number;
  /** Why it failed (without `at`), or null. */
  error: Omit<DeliveryError, 'at'> | null;
  /** A `Retry-After` of a 429 or 503, in seconds. */
  retryAfterSeconds: number | null;
}

/** Sends a delivery; injectable so the engine is tested without a network. */
export interface Transport {
  send(request: {
    url: string;
    body: string;
    headers: Record<string, string>;
    timeoutMs: number;
    /** The webhook's mTLS client certificate, presented on the connection. */
    clientCertificate?: ClientCredentials | undefined;
  }): Promise<SendResult>;
  /** Closes idle connections and waits for those in use. */
  close(): Promise<void>;
}

const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;
const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

/** The `last_error` code and message of an exception from a request (messages carry no secret). */
function classifySendError(error: unknown, timedOut: boolean): Omit<DeliveryError, 'at'> {
  const chain: { code?: unknown; name?: unknown; message?: unknown }[] = [];
  for (
    let e: unknown = error;
    e && typeof e === 'object' && chain.length < 5;
    e = (e as { cause?: unknown }).cause
  ) {
    chain.push(e as { code?: unknown });
  }
  const codes = chain.map((e) => String(e.code ?? ''));
  if (codes.includes('blocked_target')) {
    return { code: 'blocked_target', message: 'the host resolves to a non-public address' };
  }
  if (timedOut || codes.some((c) => TIMEOUT_CODES.has(c)) || chain.some((e) => e.name === 'TimeoutError')) {
    return { code: 'timeout', message: 'no complete response within the attempt timeout' };
  }
  const tls = codes.find((c) => TLS_CODES.test(c));
  if (tls) return { code: 'tls_error', message: `TLS: ${tls}` };
  const known = codes.find((c) => /^[A-Z][A-Z0-9_]+$/.test(c));
  return { code: 'connection_error', message: known ? `connection failed: ${known}` : 'connection failed' };
}

/**
 * The connections of one client certificate's pool that may be opening at once (`handshake-gate.ts`).
 * Measured with RSA-4096 keys against a receiver that closes every connection
 * (`packages/test-utils/src/http/audit-webhooks/receiver-handshakes.ts`, on PostgreSQL), another
 * organization's p99 was 57 ms with one, about 100 ms with two and 110 to 130 ms ungated.
 */
const CERTIFICATE_HANDSHAKES = 1;

/** Options of {@link createUndiciTransport}. */
export interface UndiciTransportOptions {
  resolve: ResolveHost;
  allowHosts: AllowHosts;
  /** Connections per receiver origin. Default 8. */
  connections?: number;
  /** Extra TLS options for tests (e.g. `ca`); production trusts Node's store and `NODE_EXTRA_CA_CERTS`. */
  tls?: { ca?: string | Buffer };
  /** Clock for latency. Default `performance.now`. */
  now?: () => number;
}

/**
 * The transport's connection pools: one shared, and one per client certificate; every socket is
 * SSRF-guarded at its lookup and watched for TLS alerts.
 */
function transportPools(options: UndiciTransportOptions) {
  const alerts = createTlsAlerts();
  const agentWith = (credentials?: ClientCredentials) => {
    const connector = alerts.watch(
      buildConnector({
        lookup: guardedLookup(options.resolve, options.allowHosts),
        ...(options.tls ?? {}),
        ...(credentials ? { cert: credentials.certificate, key: credentials.privateKey } : {}),
      }),
    );
    return new Agent({
      connections: options.connections ?? 8,
      keepAliveTimeout: 30_000,
      // A client certificate's handshakes each sign on this thread: a few at a time.
      connect: credentials ? gatedConnector(connector, CERTIFICATE_HANDSHAKES) : connector,
    });
  };
  const shared = agentWith();
  const certificateAgents = createCertificateAgents(agentWith);
  return {
    alerts,
    pool: (credentials?: ClientCredentials) => (credentials ? certificateAgents.get(credentials) : shared),
    close: async () => {
      await Promise.all([shared.close(), certificateAgents.close()]);
    },
  };
}

/** The production transport. */
export function createUndiciTransport(options: UndiciTransportOptions): Transport {
  const now = options.now ?? (() => performance.now());
  const pools = transportPools(options);
  const targets = parsedTargets();
  return {
    async send({ url, body, headers, timeoutMs, clientCertificate }) {
      const started = now();
      const target = targets.get(url);
      const { host } = target;
      // An address literal never reaches a DNS lookup: check it here, before connecting.
      if (target.literal && !options.allowHosts.has(host) && !isGlobalAddress(host)) {
        return {
          ok: false,
          statusCode: null,
          latencyMs: 0,
          error: { code: 'blocked_target', message: 'the url points at a non-public address' },
          retryAfterSeconds: null,
        };
      }
      const deadline = attemptDeadline(timeoutMs);
      const { signal } = deadline;
      const sentAt = Date.now();
      try {
        const pool = pools.pool(clientCertificate);
        const response = await pool.request({
          origin: target.origin,
          path: target.path,
          method: 'POST',
          headers: withUserAgent(headers),
          body,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        // Read (and drop) the answer, so the latency covers the whole response and the connection is reused.
        await response.body.dump({ limit: 64 * 1024 });
        const statusCode = response.statusCode;
        const ok = statusCode >= 200 && statusCode < 300;
        const retryAfter =
          statusCode === 429 || statusCode === 503
            ? parseRetryAfter(String(response.headers['retry-after'] ?? ''), Date.now())
            : null;
        return {
          ok,
          statusCode,
          latencyMs: now() - started,
          error: ok
            ? null
            : {
                code: 'http_status',
                status_code: statusCode,
                message: `the receiver answered ${statusCode}`,
              },
          retryAfterSeconds: retryAfter,
        };
      } catch (error) {
        return {
          ok: false,
          statusCode: null,
          latencyMs: now() - started,
          error: withTlsAlert(
            classifySendError(error, deadline.passed),
            pools.alerts.since(target.hostname, target.port, sentAt),
          ),
          retryAfterSeconds: null,
        };
      } finally {
        deadline.clear();
      }
    },
    close: () => pools.close(),
  };
}

/**
 * An attempt's timeout: a timer cleared when the attempt ends, not `AbortSignal.timeout` (whose
 * timer lives on until the timeout has passed, for every attempt, and costs many times more to set
 * up), and a plain emitter as the signal, which undici takes as well: an AbortController's event
 * target and its listeners cost several times more, on every attempt.
 */
function attemptDeadline(timeoutMs: number) {
  const signal = new EventEmitter();
  const deadline = { signal, passed: false, clear: () => clearTimeout(timer) };
  const timer = setTimeout(() => {
    deadline.passed = true;
    signal.emit('abort');
  }, timeoutMs);
  timer.unref();
  return deadline;
}

/** What a send needs of its webhook's URL. */
interface Target {
  origin: string;
  path: string;
  /** The host as the SSRF guard compares it (lowercase, IPv6 without brackets). */
  host: string;
  /** The host is an address literal (no DNS lookup, so checked before connecting). */
  literal: boolean;
  hostname: string;
  port: string;
}

const TARGETS_LIMIT = 10_000;

/**
 * URLs parsed once, not at every attempt: a webhook's URL is sent to many times, and parsing it and
 * telling an address literal from a name cost more than the rest of a send's own work.
 */
function parsedTargets() {
  const parsed = new Map<string, Target>();
  return {
    get(url: string): Target {
      let target = parsed.get(url);
      if (target === undefined) {
        const at = new URL(url);
        const host = targetHost(at);
        target = {
          origin: at.origin,
          path: `${at.pathname}${at.search}`,
          host,
          literal: isIP(host) !== 0,
          hostname: at.hostname,
          port: at.port || '443',
        };
        if (parsed.size >= TARGETS_LIMIT) parsed.clear();
        parsed.set(url, target);
      }
      return target;
    },
  };
}

/** A connection failure as the TLS error a receiver's alert says it was, when one was seen. */
function withTlsAlert(error: Omit<DeliveryError, 'at'>, alert: string | null): Omit<DeliveryError, 'at'> {
  return error.code === 'connection_error' && alert ? { code: 'tls_error', message: `TLS: ${alert}` } : error;
}

/** The headers with our user agent, unless a custom header already names one. */
function withUserAgent(headers: Record<string, string>): Record<string, string> {
  // By length first: lowercasing every header name of every attempt showed in profiles.
  for (const name in headers)
    if (name.length === USER_AGENT.length && name.toLowerCase() === USER_AGENT) return headers;
  return { ...headers, [USER_AGENT]: 'Latchkey-Webhooks/1' };
}

const USER_AGENT = 'user-agent';
