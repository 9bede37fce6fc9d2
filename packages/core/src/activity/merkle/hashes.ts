/**
 * The RFC 6962 / RFC 9162 hashes of an organization's Merkle tree: a leaf is SHA-256(0x00 || data),
 * an interior node SHA-256(0x01 || left || right), and a leaf's data is the RFC 8785 canonical JSON
 * of the event as history returns it (its `hash` included). Pure, so the client can use it.
 */
import canonicalize from 'canonicalize';
import { sha256 } from './sha256.js';

const LEAF_PREFIX = new Uint8Array([0]);
const NODE_PREFIX = new Uint8Array([1]);
const encoder = new TextEncoder();

/** The hash of a leaf holding `data`. */
export const leafHash = (data: Uint8Array): Uint8Array => sha256(LEAF_PREFIX, data);

/** The hash of an interior node over its two children. */
export const nodeHash = (left: Uint8Array, right: Uint8Array): Uint8Array => sha256(NODE_PREFIX, left, right);

/** The root of the empty tree: the SHA-256 of nothing. */
export const emptyRoot = (): Uint8Array => sha256();

/** The bytes an event's leaf holds: the UTF-8 of its RFC 8785 canonical JSON. */
export function eventLeafData(event: object): Uint8Array {
  return encoder.encode(canonicalize(event) ?? '');
}

/** The leaf hash of an event. */
export const eventLeafHash = (event: object): Uint8Array => leafHash(eventLeafData(event));

/** Whether two hashes are equal. */
export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
