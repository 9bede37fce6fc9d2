/**
 * What `@latchkey/core` and `/client` both list that needs Node's crypto: device keys, push and
 * change-request signing, approvals, and the activity export check on Node's crypto.
 */
export {
  changeRequestDigest,
  type DigestChange,
  signApproval,
  signChangeRequest,
  type UnsignedChangeRequest,
} from '../client/change-request-signing.js';
export { verifyActivityExport } from '../client/node-chain-crypto.js';
export { type DeviceKeyPair, generateDeviceKeyPair, signPush, type UnsignedPush } from '../client/push.js';
