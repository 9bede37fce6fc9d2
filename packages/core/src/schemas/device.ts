/** A device as answers show it: an enrolled one, or a workload's ephemeral one with its expiry. */
import { z } from 'zod';

export const DeviceResponse = z.strictObject({
  id: z.string(),
  user: z.string(),
  name: z.string(),
  public_key: z.string(),
  status: z
    .enum(['active', 'revoked', 'expired'])
    .describe('expired: a workload’s ephemeral device past its expires_at'),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  expires_at: z
    .string()
    .optional()
    .describe('Only for a workload’s ephemeral device: when it stops signing, with its token'),
});
