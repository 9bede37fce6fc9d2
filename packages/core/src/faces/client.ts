/**
 * `@latchkey/core/client`: what a client needs, without any server code: device keys and push
 * signing, checking an activity export and its signed checkpoint, checking Merkle inclusion and
 * consistency proofs, and opening C2SP checkpoint notes. The shared list (`client-shared.ts`) and
 * what needs Node's crypto: `verifyActivityExport` walks an export with Node's crypto here and with
 * WebCrypto under the `browser` condition (`client-browser.ts`), the same walk and texts.
 */
export { verifyChain } from '../activity/chain.js';
export { verifyCheckpoint } from '../activity/checkpoint/checkpoint.js';
export { approvalSigningPayload } from '../client/change-request-signing.js';
export { isSecretKey, SECRET_KEY_PATTERN, SECRET_KEY_RULE } from '../model/secret-key.js';
export {
  type PushAddress,
  pushSigningPayload,
  type SigningPurpose,
  verifyClientSignature,
} from '../secrets/signatures.js';
export * from './client-node.js';
export * from './client-shared.js';
