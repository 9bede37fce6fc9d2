/** The body field names the fuzz tests draw from: every route's own fields, and one unknown. */
export const BODY_FIELDS = [
  'slug',
  'name',
  'user',
  'role',
  'grants',
  'changes',
  'device_id',
  'nonce',
  'signed_at',
  'client_sig',
  'public_key',
  'require_strict_conflict_mode',
  'x',
] as const;
