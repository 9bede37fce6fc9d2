/**
 * The zod schemas that validate every request. The same schemas generate the OpenAPI document, so
 * the documentation cannot drift from what the server accepts.
 */
import { z } from 'zod';
import { ROLES } from '../model/roles.js';
import { SECRET_KEY_PATTERN, SECRET_KEY_RULE } from '../model/secret-key.js';
import { ApprovalPolicySchema, ApprovalPolicyView } from './approval-policy.js';
import { text } from './text.js';

/** Organization, project and environment slugs: lower-case letters, digits and inner hyphens. */
export const SlugSchema = text().regex(
  /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
  'must be a slug: a-z, 0-9 and inner hyphens, at most 63 characters',
);

/** An id with its type prefix, e.g. `dev_…`. */
export const idSchema = (prefix: string) =>
  text().regex(new RegExp(`^${prefix}_[A-Za-z0-9]{8,64}$`), `must be an id starting with ${prefix}_`);

/** A user identifier as the host app knows it (a user id or an email). */
export const UserSchema = text()
  .min(1)
  .max(254)
  .refine((user) => !/[\s\p{Cc}]/u.test(user), 'must not contain white space or control characters');

export const RoleSchema = z.enum(ROLES);

/**
 * A display name (of an organization, project, token or device): 1 to `max` characters of
 * well-formed text with no control characters (a terminal or a CSV reader would act on them;
 * PostgreSQL refuses NUL). Restore holds a backup's names to the same schema.
 */
const nameSchema = (max = 200) =>
  text()
    .min(1)
    .max(max)
    .refine((name) => !/\p{Cc}/u.test(name), 'must not contain control characters');
/** {@link nameSchema} at its default length. */
export const NameSchema = nameSchema();

export { listOf } from './list.js';

export const GrantSchema = z.strictObject({
  project: SlugSchema,
  environments: z
    .array(z.union([SlugSchema, z.literal('*')]))
    .min(1)
    .max(100),
});

/** A secret key name. */
export const SecretKeySchema = text().regex(SECRET_KEY_PATTERN, SECRET_KEY_RULE);

export const CreateOrganizationBody = z.strictObject({
  slug: SlugSchema,
  name: nameSchema().optional(),
});

export const CreateProjectBody = z.strictObject({
  slug: SlugSchema,
  name: nameSchema().optional(),
});

export const CreateEnvironmentBody = z.strictObject({
  slug: SlugSchema,
  require_strict_conflict_mode: z.boolean().optional(),
});

export const UpdateEnvironmentBody = z
  .strictObject({
    require_strict_conflict_mode: z.boolean().optional(),
    approval_policy: ApprovalPolicySchema.nullable()
      .optional()
      .describe('The approvals a change needs here (see change requests); null removes it'),
  })
  .refine((b) => b.require_strict_conflict_mode !== undefined || b.approval_policy !== undefined, {
    message: 'give require_strict_conflict_mode, approval_policy, or both',
  });

export const AddMemberBody = z.strictObject({
  user: UserSchema,
  role: RoleSchema,
  grants: z.array(GrantSchema).max(500).optional(),
});

export const UpdateMemberBody = z
  .strictObject({
    role: RoleSchema.optional(),
    grants: z.array(GrantSchema).max(500).optional(),
  })
  .refine((body) => body.role !== undefined || body.grants !== undefined, {
    message: 'give role, grants, or both',
  });

export const CreateTokenBody = z.strictObject({
  user: UserSchema,
  name: nameSchema(),
});

export const EnrollDeviceBody = z.strictObject({
  name: nameSchema(),
  public_key: text()
    .min(1)
    .max(4096)
    .describe('Ed25519 public key: SPKI PEM, or the raw 32 bytes in base64url'),
});

export const PushChangeSchema = z
  .strictObject({
    key: SecretKeySchema,
    value: text()
      .max(1_048_576)
      .optional()
      .describe('well-formed Unicode without NUL: stored exactly as signed'),
    delete: z.literal(true).optional(),
    if_version: z.int().min(0).max(2_147_483_647).optional(),
  })
  .refine((c) => (c.value === undefined) !== (c.delete === undefined), {
    message: 'exactly one of value or delete must be given',
  });

/** The fields of a signed push, shared by a push and a change request (`schemas/change-requests.ts`). */
export const pushFields = {
  device_id: idSchema('dev'),
  signed_at: z
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .describe('Unix seconds; must be within 300 s of now'),
  nonce: text()
    .regex(/^[A-Za-z0-9_-]{22,256}$/, 'must be at least 16 random bytes, base64url')
    .describe('Never reusable'),
  conflict_mode: z.enum(['lenient', 'strict']).optional(),
  force_overwrite: z.boolean().optional(),
  changes: z.array(PushChangeSchema).min(1).max(1000),
  client_sig: text()
    .max(200)
    .describe('base64url Ed25519 signature over the JCS of the body without client_sig'),
};

/** A refinement of a push-shaped body: no key twice. */
export function uniqueKeys(body: { changes: { key: string }[] }, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  body.changes.forEach((change, index) => {
    if (seen.has(change.key)) {
      ctx.addIssue({ code: 'custom', path: ['changes', index, 'key'], message: 'duplicate key in one push' });
    }
    seen.add(change.key);
  });
}

export const PushBody = z
  .strictObject({
    ...pushFields,
    bypass_reason: text()
      .min(1)
      .max(500)
      .optional()
      .describe(
        'Under an approval policy: push past it (a role in bypass_roles), recorded as change_bypassed',
      ),
  })
  .superRefine(uniqueKeys);

export type PushBodyInput = z.infer<typeof PushBody>;

/* Responses (documented in OpenAPI; the handlers build them). */

export const ErrorResponse = z.strictObject({
  error: z.strictObject({
    code: z.string(),
    message: z.string(),
    status: z.int(),
    details: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
  }),
});

export const ConflictResponse = ErrorResponse.extend({
  conflicts: z.array(
    z.strictObject({ key: z.string(), server_version: z.int(), client_if_version: z.int() }),
  ),
});

/** The 409 of a push: `version_conflict` with `conflicts[]`, or `push_replayed` without. */
export const PushConflictResponse = z.union([ConflictResponse, ErrorResponse]);

/** The 428 of a strict push: `if_version_required` with the `keys[]` that lack `if_version`. */
export const IfVersionRequiredResponse = ErrorResponse.extend({ keys: z.array(z.string()) });

export const OrganizationResponse = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  created_at: z.string(),
});

export const ProjectResponse = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  created_at: z.string(),
});

export const EnvironmentResponse = z.strictObject({
  id: z.string(),
  project: z.string(),
  slug: z.string(),
  require_strict_conflict_mode: z.boolean(),
  approval_policy: ApprovalPolicyView.nullable(),
  created_at: z.string(),
});

export const MemberResponse = z.strictObject({
  user: z.string(),
  role: RoleSchema,
  grants: z.array(GrantSchema),
  created_at: z.string(),
});

export const RemovedMemberResponse = z.strictObject({
  user: z.string(),
  role: RoleSchema,
  tokens_revoked: z.number().int(),
  devices_revoked: z.number().int(),
});

export const TokenResponse = z.strictObject({
  id: z.string(),
  user: z.string(),
  name: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});

export const CreatedTokenResponse = TokenResponse.extend({ token: z.string().describe('Shown once') });

export { DeviceResponse } from './device.js';

export const PushResponse = z.strictObject({
  versions: z.array(z.strictObject({ key: z.string(), version: z.int() })),
  event_id: z.string(),
});

export const SecretsResponse = z.strictObject({
  secrets: z.array(
    z.strictObject({ key: z.string(), value: z.string(), version: z.int(), updated_at: z.string() }),
  ),
});

export const PermissionMatrixResponse = z.strictObject({
  roles: z.array(z.strictObject({ role: RoleSchema, permissions: z.array(z.string()) })),
  permissions: z.array(z.strictObject({ name: z.string(), scope: z.string(), description: z.string() })),
  matrix: z.record(z.string(), z.record(z.string(), z.boolean())),
  members: z.array(
    MemberResponse.extend({
      effective: z.array(
        z.strictObject({
          permission: z.string(),
          scope: z.string(),
          project: z.string().optional(),
          environments: z.array(z.string()).optional(),
        }),
      ),
    }),
  ),
});

export const CreatedOrganizationResponse = z.strictObject({
  organization: OrganizationResponse,
  token: z.string().describe('An API token of the new owner (you), shown once'),
});

/** `GET /me`: the caller, their organization, role and grants. */
export const MeResponse = z.strictObject({
  user: z.string(),
  organization: OrganizationResponse,
  role: RoleSchema,
  grants: z.array(GrantSchema).describe('the projects and environments a developer or viewer may act on'),
});

/**
 * The value a schema yields (`z.infer`), so a client that reads the API types its answers from these
 * schemas without depending on zod itself, e.g. `schemas.Infer<typeof schemas.MetricsResponse>`.
 */
export type Infer<T extends z.ZodType> = z.infer<T>;

export * from './activity.js';
export * from './audit-webhooks.js';
export * from './proofs.js';
export * from './secret-versions.js';
export * from './signature-schemes.js';
