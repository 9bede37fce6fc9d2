/**
 * The transport suite: what happens on the wire around `core.handle` for every adapter, and the
 * things tests put on a connection's path (a TCP proxy that cuts it, a PgBouncer in front of PostgreSQL).
 */
export { pgBouncerBinary, pgBouncerForTests, type RunningPgBouncer, startPgBouncer } from './pgbouncer.js';
export { createTcpProxy, type TcpProxy, type TcpProxyOptions } from './tcp-proxy.js';
export {
  describeTransportConformance,
  type StartServer,
  type TransportConformanceOptions,
} from './transport-conformance.js';
