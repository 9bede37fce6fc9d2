/**
 * `verifyActivityExport` for Node (the CLI and other Node clients): the shared walk of
 * `verify-export.ts` with Node's crypto, synchronous and many times faster per line than WebCrypto
 * in Node, as the server's own sealing and signing use it.
 */
import { createHash } from 'node:crypto';
import { verifyCheckpoint } from '../activity/checkpoint/checkpoint.js';
import type { ChainCrypto } from './chain-crypto.js';
import type { ExportSource } from './export-lines.js';
import type { ExportVerdict } from './export-verdict.js';
import { type VerifyExportOptions, verifyExportWith } from './verify-export.js';

/** The export check's primitives on Node's crypto. */
const nodeChainCrypto: ChainCrypto = {
  sha256Hex: (text) => createHash('sha256').update(text).digest('hex'),
  verifyCheckpoint,
};

/**
 * Verifies an NDJSON export (a string, bytes, or a stream of chunks such as a file read stream or
 * a `fetch` body) of `options.organization`, naming the first bad line and why; see
 * `verifyExportWith` for what is checked.
 */
export function verifyActivityExport(
  source: ExportSource,
  options: VerifyExportOptions,
): Promise<ExportVerdict> {
  return verifyExportWith(nodeChainCrypto, source, options);
}
