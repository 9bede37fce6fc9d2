/**
 * The C2SP tlog-checkpoint body (https://c2sp.org/tlog-checkpoint): the origin line, the tree size
 * in decimal, the base64 root hash, each ending with a newline. Extension lines are allowed by the
 * spec; this log writes none and the parser keeps any it finds.
 */
import { fromBase64, toBase64 } from '../../encoding/base64.js';

/** A tree head as a checkpoint names it. */
export interface CheckpointBody {
  /** The log's origin line, e.g. `latchkey.example.com/acme`. */
  origin: string;
  /** Number of leaves (events) the tree holds. */
  treeSize: number;
  /** The RFC 6962 root hash (32 bytes). */
  rootHash: Uint8Array;
  /** Lines after the root hash, each without its newline (none from this server). */
  extensions: string[];
}

/** The body's text for an origin, size and root hash. */
export function checkpointBodyText(origin: string, treeSize: number, rootHash: Uint8Array): string {
  if (!Number.isSafeInteger(treeSize) || treeSize < 0)
    throw new RangeError('A tree size is a non-negative integer.');
  if (rootHash.length !== 32) throw new RangeError('A root hash is 32 bytes.');
  if (origin === '' || /[\n]/.test(origin)) throw new RangeError('An origin is one non-empty line.');
  return `${origin}\n${treeSize}\n${toBase64(rootHash)}\n`;
}

/** Parses a checkpoint body (a note's text); null when it is not one. */
export function parseCheckpointBody(text: string): CheckpointBody | null {
  if (!text.endsWith('\n')) return null;
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) return null;
  const [origin, size, root, ...extensions] = lines as [string, string, string, ...string[]];
  // Decimal without leading zeros, so one size has one spelling.
  if (origin === '' || !/^(0|[1-9][0-9]{0,15})$/.test(size)) return null;
  const treeSize = Number(size);
  const rootHash = fromBase64(root);
  if (!Number.isSafeInteger(treeSize) || !rootHash || rootHash.length !== 32) return null;
  if (extensions.some((line) => line === '')) return null;
  return { origin, treeSize, rootHash, extensions };
}
