/**
 * `@latchkey/test-utils/remote`: a server program's side of a remote run of the HTTP conformance
 * suite (the suite's core built in the server, on its store, answering the harness over IPC). Free
 * of vitest, so a server program bundles it. The harness's side is `remoteServer` of the main entry.
 */
export { answerConformanceHarness, type ServeCore } from './answer-harness.js';
