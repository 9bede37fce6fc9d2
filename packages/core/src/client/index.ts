/**
 * `@latchkey/core/client`: what a client needs, without any server code: device keys and push
 * signing, and checking an activity export and its signed checkpoint.
 */
export { type ChainHead, GENESIS_HASH, sealEvent, verifyChain } from '../activity/chain.js';
export { type Checkpoint, verifyCheckpoint } from '../activity/checkpoint.js';
export type { ActivityDraft, ActivityEvent, Actor } from '../model.js';
export type { PushAddress } from '../secrets/signatures.js';
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
export { type DeviceKeyPair, generateDeviceKeyPair, signPush, type UnsignedPush } from './push.js';
export {
  type ExportFault,
  type ExportVerdict,
  type VerifyExportOptions,
  verifyActivityExport,
} from './verify-export.js';
