/**
 * The HTTP suite: one body of tests for every way of serving the core (in-process and over each
 * adapter's loopback port), the targets it runs against, and the restore helpers other packages'
 * tests build their backups with.
 */

export { LARGE_VERSIONS, partsOf, withLargeHistory } from './backup/large-backup.js';
export { manifestOf } from './backup/restore.js';
export { contentOf, linesOf } from './backup/restore-helpers.js';
export { expectedRaceEvents, raceEventCounts } from './change-requests/race-events.js';
export { postChunked, type RunningServer, running } from './harness/http-helpers.js';
export {
  fetchTarget,
  type HttpTarget,
  inProcessTarget,
  type StartTarget,
  type TargetRequest,
  type TargetResponse,
} from './harness/http-target.js';
export { describeHttpConformance, expectError, type HttpConformanceOptions } from './http-conformance.js';
export { type RemoteServer, type RemoteServerOptions, remoteServer } from './remote/remote-server.js';
