/**
 * `@latchkey/core/client` as a browser resolves it (the `browser` condition): the shared list
 * (`client-shared.ts`) and the export walk on WebCrypto, without the device-key and push-signing
 * helpers that need Node's crypto.
 */
export { verifyActivityExport } from '../client/web-verify-export.js';
export * from './client-shared.js';
