/**
 * `verifyActivityExport` for browsers (the `browser` entry, the dashboard's Verify): the shared
 * walk of `verify-export.ts` with WebCrypto's SHA-256 and Ed25519.
 */
import type { ExportSource } from './export-lines.js';
import type { ExportVerdict } from './export-verdict.js';
import { type VerifyExportOptions, verifyExportWith } from './verify-export.js';
import { webChainCrypto } from './web-crypto.js';

/**
 * Verifies an NDJSON export (a string, bytes, or a stream of chunks such as a `fetch` body) of
 * `options.organization`, naming the first bad line and why; see `verifyExportWith`.
 */
export function verifyActivityExport(
  source: ExportSource,
  options: VerifyExportOptions,
): Promise<ExportVerdict> {
  return verifyExportWith(webChainCrypto, source, options);
}
