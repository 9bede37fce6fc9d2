/**
 * Change requests: the signed body that makes one (a push's fields plus a title and description),
 * the review bodies, and the request as answers show it (values only on request).
 */
import { z } from 'zod';
import { CHANGE_REQUEST_STATUSES } from '../model/change-request.js';
import { idSchema, pushFields, uniqueKeys } from './api.js';
import { pageCursor, pageLimit, pageOf } from './list.js';
import { text } from './text.js';

/** Text a person writes (a title, a reason): well-formed, no control characters but line breaks. */
const prose = (min: number, max: number) =>
  text()
    .min(min)
    .max(max)
    .refine((value) => !/[^\P{Cc}\n\r\t]/u.test(value), 'must not contain control characters');

export const ChangeRequestBody = z
  .strictObject({
    ...pushFields,
    title: prose(1, 200),
    description: prose(0, 4000).optional(),
  })
  .superRefine(uniqueKeys)
  .describe(
    'A push body plus title and description, signed with "purpose": "change_request" added to the signed payload',
  );

export type ChangeRequestBodyInput = z.infer<typeof ChangeRequestBody>;

export const ApproveBody = z.strictObject({
  comment: prose(1, 1000).optional(),
  device_id: idSchema('dev').optional(),
  signed_at: z.int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  signature: text()
    .max(200)
    .optional()
    .describe(
      'base64url Ed25519 over the JCS of {change_request, digest, signed_at} (require_signed_approvals)',
    ),
});

export type ApproveBodyInput = z.infer<typeof ApproveBody>;

export const RejectBody = z.strictObject({ reason: prose(1, 500) });

export const ChangeRequestListQuery = z.strictObject({
  status: z.enum(CHANGE_REQUEST_STATUSES).optional(),
  limit: pageLimit(100),
  cursor: pageCursor(/^chr_[A-Za-z0-9]{8,64}$/),
});

export const ChangeRequestReadQuery = z.strictObject({
  include_values: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: the values too (secrets:read; recorded)'),
});

export const ChangeRequestView = z.strictObject({
  id: z.string(),
  status: z.enum(CHANGE_REQUEST_STATUSES),
  title: z.string(),
  description: z.string(),
  project: z.string(),
  environment: z.string(),
  created_by: z.string(),
  device_id: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  required_approvals: z.int(),
  changes: z.array(
    z.strictObject({
      key: z.string(),
      action: z.enum(['set', 'delete']),
      if_version: z.int(),
      value: z.string().nullable().optional().describe('only with include_values=true'),
    }),
  ),
  approvals: z.array(
    z.strictObject({
      user: z.string(),
      approved_at: z.string(),
      comment: z.string().optional(),
      device_id: z.string().optional(),
    }),
  ),
  rejection: z.strictObject({ user: z.string(), reason: z.string(), at: z.string() }).optional(),
  applied: z
    .strictObject({
      event_id: z.string(),
      versions: z.array(z.strictObject({ key: z.string(), version: z.int() })),
    })
    .optional(),
});

export const ChangeRequestResponse = z.strictObject({ change_request: ChangeRequestView });

export const ChangeRequestPage = pageOf('change_requests', ChangeRequestView);
