/**
 * The HTTP suite: one body of tests for every way of serving the core (in-process and over each
 * adapter's loopback port), the targets it runs against, and the restore helpers other packages'
 * tests build their backups with.
 */
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
export { LARGE_VERSIONS, partsOf, withLargeHistory } from './large-backup.js';
export { type RemoteServer, type RemoteServerOptions, remoteServer } from './remote/remote-server.js';
export { manifestOf } from './restore.js';
export { contentOf, linesOf } from './restore-helpers.js';
