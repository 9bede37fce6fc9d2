/**
 * `@latchkey/core/client`: what a client needs, without any server code: device keys and push
 * signing, checking an activity export and its signed checkpoint, checking Merkle inclusion and
 * consistency proofs, and opening C2SP checkpoint notes. `verifyActivityExport` walks an export
 * with Node's crypto here and with WebCrypto under the `browser` condition (`browser.ts`): the same
 * walk and texts, the primitive of each platform.
 */
export { type ChainHead, GENESIS_HASH, sealEvent, verifyChain } from '../activity/chain.js';
export { type Checkpoint, verifyCheckpoint } from '../activity/checkpoint/checkpoint.js';
export { eventLeafData, eventLeafHash, leafHash } from '../activity/merkle/hashes.js';
export { fromBase64, toBase64 } from '../encoding/base64.js';
export type { ActivityDraft, ActivityEvent, Actor } from '../model/model.js';
export { isSecretKey, SECRET_KEY_PATTERN, SECRET_KEY_RULE } from '../model/secret-key.js';
export type { PushAddress } from '../secrets/signatures.js';
export { type CosignOptions, cosignCheckpoint } from './cosign-checkpoint.js';
export { verifyActivityExport } from './node-chain-crypto.js';
export {
  type CheckpointFault,
  type CheckpointVerdict,
  checkpointBody,
  type NotePublicKey,
  type OpenCheckpointOptions,
  type OpenedCheckpoint,
  openCheckpoint,
} from './open-checkpoint.js';
export { type DeviceKeyPair, generateDeviceKeyPair, signPush, type UnsignedPush } from './push.js';
export { formatTlogProof, TLOG_PROOF_HEADER, type TlogProofInput } from './tlog-proof.js';
export type { ExportFault, ExportVerdict, VerifyExportOptions } from './verify-export.js';
export {
  type ConsistencyInput,
  type InclusionInput,
  verifyConsistency,
  verifyInclusion,
} from './verify-proofs.js';
export { expectedEventHash, sha256Hex, verifyCheckpointSignature } from './web-crypto.js';
