/**
 * The shared conformance suites of Latchkey (private, never published): every store runs the store
 * suite, every way of serving the core runs the HTTP suite, every adapter the transport suite, every
 * example server the example tests. Starting an example server and making a loopback certificate,
 * free of vitest, are the subpaths `@latchkey/test-utils/spawn` and `…/loopback-certificate`.
 */
export { LARGE_VERSIONS, partsOf, withLargeHistory } from './conformance/large-backup.js';
export { manifestOf } from './conformance/restore.js';
export { contentOf, linesOf } from './conformance/restore-helpers.js';
export { describeExample } from './example-servers/describe-example.js';
export { describeWebhookDeliveries } from './example-servers/webhook-deliveries.js';
export { type GoOfflineVerdict, goOfflineCheck, goOfflineMissing } from './go-offline-check.js';
export { describeHttpConformance, expectError, type HttpConformanceOptions } from './http-conformance.js';
export { postChunked, type RunningServer, running } from './http-helpers.js';
export {
  fetchTarget,
  type HttpTarget,
  inProcessTarget,
  type StartTarget,
  type TargetRequest,
  type TargetResponse,
} from './http-target.js';
export type { SkipList } from './keyed.js';
export {
  describeKeyringBinding,
  type KeyringBindingOptions,
  type SharedDatabase,
} from './keyring-binding.js';
export { type MtlsCertificates, makeMtlsCertificates, type PemPair } from './mtls-certificates.js';
export { pgBouncerBinary, pgBouncerForTests, type RunningPgBouncer, startPgBouncer } from './pgbouncer.js';
export { describeStoreConformance, type StoreConformanceOptions } from './store-conformance.js';
export { createTcpProxy, type TcpProxy, type TcpProxyOptions } from './tcp-proxy.js';
export {
  describeTransportConformance,
  type StartServer,
  type TransportConformanceOptions,
} from './transport-conformance.js';
