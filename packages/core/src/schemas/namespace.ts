/**
 * What the main face publishes as `schemas`: the API's schemas (`api.ts`, with the files it
 * re-exports) and those of change requests and portal sessions, which build on fields in `api.ts`
 * and so cannot be re-exported from it without a circle.
 */
export * from './api.js';
export * from './change-requests.js';
export * from './portal-sessions.js';
