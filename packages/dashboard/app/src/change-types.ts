/**
 * The shapes of the change-request answers the dashboard reads, and of an environment with its
 * approval policy, inferred from the schemas the server documents them with (type-only).
 */
import type { schemas } from '@latchkey/core';

/** An environment, with its approval policy (null: none). */
export type Environment = schemas.Infer<typeof schemas.EnvironmentResponse>;

/** An environment's approval policy. */
export type ApprovalPolicy = NonNullable<Environment['approval_policy']>;

/** One change request (`chr_…`) of an environment. */
export type ChangeRequest = schemas.Infer<typeof schemas.ChangeRequestView>;

/** `GET …/change-requests`: a page of requests, newest first. */
export type ChangeRequestPage = schemas.Infer<typeof schemas.ChangeRequestPage>;

/** A request's state. */
export type ChangeRequestStatus = ChangeRequest['status'];

/** `GET …/secrets/{key}/versions`: a page of a key's versions, newest first. */
export type SecretVersionPage = schemas.Infer<typeof schemas.SecretVersionsResponse>;
