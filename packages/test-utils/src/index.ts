/**
 * The shared conformance suites of Latchkey (private, never published), one folder each: every store
 * runs the store suite, every way of serving the core runs the HTTP suite, every adapter the transport
 * suite, every example server the example tests. Starting an example server and making a loopback
 * certificate, free of vitest, are the subpaths `@latchkey/test-utils/spawn` and `…/loopback-certificate`.
 */
export {
  type MtlsCertificates,
  makeMtlsCertificates,
  type PemPair,
} from './certificates/mtls-certificates.js';
export * from './examples/index.js';
export * from './http/index.js';
export type { SkipList } from './keyed/keyed.js';
export { type GoOfflineVerdict, goOfflineCheck, goOfflineMissing } from './outside/go-offline-check.js';
export * from './store/index.js';
export * from './transport/index.js';
