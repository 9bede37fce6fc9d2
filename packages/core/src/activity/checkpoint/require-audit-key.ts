/** The refusal of every checkpoint feature on a server that holds no audit key. */
import { LatchkeyError } from '../../errors/latchkey-error.js';
import type { AuditKey } from './checkpoint.js';

/** 404 `not_found` without the audit key: then there is no signed tree head to witness or cosign. */
export function requireAuditKey(deps: { auditKey: AuditKey | undefined }): void {
  if (!deps.auditKey)
    throw new LatchkeyError('not_found', 'Signed checkpoints are not enabled on this server.');
}
