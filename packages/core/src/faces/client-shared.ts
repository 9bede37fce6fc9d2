/**
 * The names `@latchkey/core/client` has on every platform: the export checks' types, Merkle proofs,
 * checkpoint notes and tlog-proof files, all on WebCrypto or plain SHA-256. The Node face
 * (`client.ts`) and the browser face (`client-browser.ts`) both re-export this list and add their
 * own `verifyActivityExport`, so the dashboard checks what the CLI checks and the two lists cannot
 * drift. Nothing here may load a Node module (`client-entry.test.ts`).
 */
export { type ChainHead, GENESIS_HASH } from '../activity/chain-form.js';
export type { Checkpoint } from '../activity/checkpoint/checkpoint-form.js';
export { eventLeafData, eventLeafHash, leafHash } from '../activity/merkle/hashes.js';
export { type CosignOptions, cosignCheckpoint } from '../client/cosign-checkpoint.js';
export {
  type CheckpointFault,
  type CheckpointVerdict,
  checkpointBody,
  type NotePublicKey,
  type OpenCheckpointOptions,
  type OpenedCheckpoint,
  openCheckpoint,
} from '../client/open-checkpoint.js';
export { formatTlogProof, TLOG_PROOF_HEADER, type TlogProofInput } from '../client/tlog-proof.js';
export type { ExportFault, ExportVerdict, VerifyExportOptions } from '../client/verify-export.js';
export {
  type ConsistencyInput,
  type InclusionInput,
  verifyConsistency,
  verifyInclusion,
} from '../client/verify-proofs.js';
export { expectedEventHash, sha256Hex, verifyCheckpointSignature } from '../client/web-crypto.js';
export { fromBase64, toBase64 } from '../encoding/base64.js';
export type { ActivityDraft, ActivityEvent, Actor } from '../model/model.js';
