/** The stored records of Latchkey. Dates are ISO-8601 strings in UTC. */
import type { ApprovalPolicy } from './change-request.js';
import type { Grant, Role } from './roles.js';

export interface Organization {
  id: string;
  slug: string;
  name: string;
  created_at: string;
}

export interface Project {
  id: string;
  organization_id: string;
  slug: string;
  name: string;
  created_at: string;
}

export interface Environment {
  id: string;
  organization_id: string;
  project_id: string;
  slug: string;
  require_strict_conflict_mode: boolean;
  /** The approvals a change needs here; null (or absent, in records made before policies) for none. */
  approval_policy?: ApprovalPolicy | null | undefined;
  created_at: string;
}

export interface Member {
  organization_id: string;
  user: string;
  role: Role;
  grants: Grant[];
  created_at: string;
}

/** A built-in API token. Only the SHA-256 of the token is stored. */
export interface ApiToken {
  id: string;
  organization_id: string;
  user: string;
  name: string;
  /** Hex SHA-256 of the token string. */
  token_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface Device {
  id: string;
  organization_id: string;
  user: string;
  name: string;
  /** Raw 32-byte Ed25519 public key, base64url. */
  public_key: string;
  status: 'active' | 'revoked';
  created_at: string;
  revoked_at: string | null;
  /** A workload's ephemeral device: when it stops signing (with its token); absent for enrolled ones. */
  expires_at?: string | null | undefined;
}

/** One version of one secret key. A tombstone has `value: null`. */
export interface SecretVersion {
  key: string;
  version: number;
  value: string | null;
  updated_at: string;
}

/** Who caused an event. */
export interface Actor {
  type: 'user' | 'system' | 'workload';
  id: string;
}

/** An activity event as the caller builds it, before the store places it in the chain. */
export interface ActivityDraft {
  id: string;
  type: string;
  occurred_at: string;
  organization: string;
  project?: string | undefined;
  environment?: string | undefined;
  actor: Actor;
  device_id?: string | undefined;
  data: Record<string, unknown>;
}

/** A stored activity event: the draft plus its place in the organization's hash chain. */
export interface ActivityEvent extends ActivityDraft {
  /** Position in the organization's chain, from 1. */
  seq: number;
  /** `hash` of the previous event of the organization, or 64 zeros for the first. */
  prev_hash: string;
  /** Hex SHA-256 over `prev_hash` and the canonical JSON of the event without `hash`. */
  hash: string;
}

/** Delivery health of an audit webhook. */
export type AuditWebhookStatus = 'active' | 'disabled' | 'dead_letter';

/** Why an attempt failed: the API's `last_error`. */
export interface DeliveryError {
  at: string;
  code: 'timeout' | 'connection_error' | 'tls_error' | 'http_status' | 'blocked_target';
  /** With `http_status`: the receiver's status. */
  status_code?: number;
  /** A short description; never a secret, a body or a header value. */
  message: string;
}

/** The outcome of a webhook's latest attempt: the API's `last_delivery`. */
export interface LastDelivery {
  at: string;
  event_id: string;
  succeeded: boolean;
  status_code: number | null;
  latency_ms: number;
}

/** A per-organization destination of signed activity events. */
export interface AuditWebhook {
  id: string;
  organization_id: string;
  name: string;
  /** `https://` URL, vetted against SSRF at creation and at every attempt. */
  url: string;
  status: AuditWebhookStatus;
  /**
   * The event types it receives: names and prefixes ending in `*` (see `delivery/event-filter.ts`);
   * empty: every event.
   */
  event_types: string[];
  /** The signing secret sealed under the host's keyring (see `keyring.ts`), bound to this webhook's id. */
  secret_sealed: string;
  /**
   * Custom headers sent with every attempt (`delivery/custom-headers.ts`), each value sealed under the
   * keyring bound to the webhook and the header's name. Absent or empty: none.
   */
  headers?: WebhookHeader[];
  /** The mTLS client certificate presented on every attempt (`delivery/client-certificate.ts`). */
  client_certificate?: WebhookClientCertificate | null;
  /** How deliveries are signed (`delivery/signature-schemes/`); absent: `latchkey`. */
  signature_scheme?: SignatureScheme;
  /**
   * The secret a rotation replaced, sealed as `secret_sealed`, and until when it still signs beside
   * the new one (`standard-webhooks` only: its header carries several signatures). Null or absent:
   * none.
   */
  previous_secret?: { sealed: string; until: string } | null;
  consecutive_failures: number;
  last_delivery: LastDelivery | null;
  last_error: DeliveryError | null;
  created_at: string;
  created_by: string;
}

/** A custom header of a webhook: its name as given, its value sealed (never stored in clear). */
export interface WebhookHeader {
  name: string;
  value_sealed: string;
}

/**
 * A webhook's mTLS client certificate: the certificate (chain) in PEM, public, and its private key
 * (PKCS#8 PEM) sealed; with what the API shows of it.
 */
export interface WebhookClientCertificate {
  certificate: string;
  private_key_sealed: string;
  subject: string;
  issuer: string;
  /** SHA-256 of the DER certificate, colon-separated upper-case hex (as `X509Certificate` gives it). */
  fingerprint_sha256: string;
  not_before: string;
  not_after: string;
}

/** How a webhook's deliveries are signed: see `delivery/signature-schemes/`. */
export type SignatureScheme = 'latchkey' | 'standard-webhooks' | 'standard-webhooks-ed25519';

/**
 * One Ed25519 key pair an organization signs `standard-webhooks-ed25519` deliveries with. It signs
 * from `created_at` until `retires_at` (null: the current key); a rotation makes a new current key
 * and retires the old one after the grace period, so both sign (and are published) meanwhile.
 */
export interface WebhookSigningKey {
  id: string;
  organization_id: string;
  /** `whpk_` + standard base64 of the raw 32-byte public key. */
  public_key: string;
  /** The PKCS#8 PEM private key, sealed under the keyring, bound to this key's id. */
  private_key_sealed: string;
  created_at: string;
  retires_at: string | null;
}

/**
 * One event owed to one webhook (the outbox). `pending`: to be attempted at `next_attempt_at`;
 * `held`: its webhook is dead-lettered, sent again on `enable`; `delivered`; `cancelled` (the webhook
 * was disabled).
 */
export interface Delivery {
  id: string;
  organization_id: string;
  webhook_id: string;
  event_id: string;
  event_seq: number;
  state: 'pending' | 'held' | 'delivered' | 'cancelled';
  /** Attempts made since it was (re)queued. */
  attempts: number;
  next_attempt_at: string;
  /** A worker's claim: nobody else attempts it before this time. */
  lease_until: string | null;
  created_at: string;
  /** The W3C `traceparent` of the request whose event this delivers, when it was traced. */
  traceparent?: string | null;
}

/** One attempt to deliver an event (the attempt log of `GET …/deliveries`). */
export interface DeliveryAttempt {
  id: string;
  organization_id: string;
  webhook_id: string;
  /** Null for a `test` delivery. */
  delivery_id: string | null;
  event_id: string;
  event_type: string;
  /** 1 for the first attempt of a delivery. */
  attempt: number;
  at: string;
  succeeded: boolean;
  status_code: number | null;
  latency_ms: number;
  error: DeliveryError | null;
  /** When the next attempt is due, when one was scheduled. */
  next_attempt_at: string | null;
}
