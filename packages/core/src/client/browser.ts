/**
 * `@latchkey/core/client` as a browser resolves it (the `browser` condition): the export checks
 * and the checkpoint notes alone, on WebCrypto, without the device-key and push-signing helpers that need Node's crypto.
 * The same functions as the Node entry, not copies: the dashboard checks what the CLI checks.
 */
export { type ChainHead, GENESIS_HASH } from '../activity/chain-form.js';
export type { Checkpoint } from '../activity/checkpoint/checkpoint-form.js';
export { eventLeafData, eventLeafHash, leafHash } from '../activity/merkle/hashes.js';
export { fromBase64, toBase64 } from '../encoding/base64.js';
export type { ActivityDraft, ActivityEvent, Actor } from '../model/model.js';
export { type CosignOptions, cosignCheckpoint } from './cosign-checkpoint.js';
export {
  type CheckpointFault,
  type CheckpointVerdict,
  checkpointBody,
  type NotePublicKey,
  type OpenCheckpointOptions,
  type OpenedCheckpoint,
  openCheckpoint,
} from './open-checkpoint.js';
export { formatTlogProof, TLOG_PROOF_HEADER, type TlogProofInput } from './tlog-proof.js';
export type { ExportFault, ExportVerdict, VerifyExportOptions } from './verify-export.js';
export {
  type ConsistencyInput,
  type InclusionInput,
  verifyConsistency,
  verifyInclusion,
} from './verify-proofs.js';
export { expectedEventHash, sha256Hex, verifyCheckpointSignature } from './web-crypto.js';
export { verifyActivityExport } from './web-verify-export.js';
