/**
 * `@latchkey/core/client` as a browser resolves it (the `browser` condition): the shared list
 * (`client-shared.ts`) and the export walk on WebCrypto, without device keys and push signing,
 * which need Node's crypto.
 */
export { verifyActivityExport } from '../client/web-verify-export.js';
export * from './client-shared.js';
