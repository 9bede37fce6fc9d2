/** Event types of secrets: the outcomes of a push, and reads of kept versions. Never a value. */
import { z } from 'zod';
import { ConflictMode, entry } from './shared.js';

const Version = z.int().min(0);

export const secretEventTypes = {
  push_applied: entry(
    'A signed push was applied: each key written, with its new version',
    z.strictObject({
      conflict_mode: ConflictMode,
      versions: z.array(z.strictObject({ key: z.string(), version: Version, deleted: z.boolean() })),
      change_request: z
        .strictObject({ id: z.string(), approvers: z.array(z.string()) })
        .optional()
        .describe('the change request this push applied, and its approvers'),
    }),
  ),
  push_force_overwrite: entry(
    'A push with force_overwrite was applied: each key written, the version it overwrote and the one it wrote',
    z.strictObject({
      conflict_mode: ConflictMode,
      keys: z.array(
        z.strictObject({
          key: z.string(),
          server_version: Version,
          client_if_version: Version.nullable(),
          new_version: Version,
          deleted: z.boolean(),
        }),
      ),
    }),
  ),
  push_conflict: entry(
    'A push was refused for version conflicts; nothing was written',
    z.strictObject({
      conflict_mode: ConflictMode,
      conflicts: z.array(
        z.strictObject({ key: z.string(), server_version: Version, client_if_version: Version }),
      ),
    }),
  ),
  push_rejected: entry(
    'A push was refused (signature, device, permission or input); nothing was written',
    z.strictObject({ reason: z.string().describe('the error code answered'), status: z.int() }),
  ),
  secret_versions_read: entry(
    "Values of a secret's kept versions were read",
    z.strictObject({ key: z.string(), versions: z.array(z.number()) }),
  ),
};
