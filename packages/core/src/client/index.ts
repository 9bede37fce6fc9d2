/**
 * `@latchkey/core/client`: what a client needs, without any server code: device keys and push
 * signing, checking an activity export and its signed checkpoint, and checking Merkle inclusion and
 * consistency proofs.
 */
export { type ChainHead, GENESIS_HASH, sealEvent, verifyChain } from '../activity/chain.js';
export { type Checkpoint, verifyCheckpoint } from '../activity/checkpoint.js';
export { eventLeafHash, leafHash } from '../activity/merkle/hashes.js';
export type { ActivityDraft, ActivityEvent, Actor } from '../model.js';
export type { PushAddress } from '../secrets/signatures.js';
export { fromBase64, toBase64 } from './base64.js';
export { type DeviceKeyPair, generateDeviceKeyPair, signPush, type UnsignedPush } from './push.js';
export {
  type ExportFault,
  type ExportVerdict,
  type VerifyExportOptions,
  verifyActivityExport,
} from './verify-export.js';
export {
  type ConsistencyInput,
  type InclusionInput,
  verifyConsistency,
  verifyInclusion,
} from './verify-proofs.js';
