/**
 * `@latchkey/core/client`: what a client needs, without any server code: device keys and push
 * signing, and checking an activity export and its signed checkpoint. The export checks
 * (`verifyActivityExport`, `expectedEventHash`, `verifyCheckpointSignature`) use WebCrypto only,
 * so a browser runs them as the CLI does; the rest uses Node's crypto.
 */
export { type ChainHead, GENESIS_HASH, sealEvent, verifyChain } from '../activity/chain.js';
export { type Checkpoint, verifyCheckpoint } from '../activity/checkpoint.js';
export type { ActivityDraft, ActivityEvent, Actor } from '../model.js';
export type { PushAddress } from '../secrets/signatures.js';
export { type DeviceKeyPair, generateDeviceKeyPair, signPush, type UnsignedPush } from './push.js';
export {
  type ExportFault,
  type ExportVerdict,
  type VerifyExportOptions,
  verifyActivityExport,
} from './verify-export.js';
export { expectedEventHash, sha256Hex, verifyCheckpointSignature } from './web-crypto.js';
