/**
 * The options of the HTTP conformance suite's core, written once: the suite builds its core with
 * them in its own process, and a spawned server under test builds its core with the same ones
 * (`remote/`), so a test passes or fails on the same core either way.
 */
import type { CoreOptions } from '@latchkey/core';
import type { Transport } from '@latchkey/core/webhooks';
import { CONFORMANCE_MAX_LINE_BYTES, CONFORMANCE_REPLAY_BATCH } from './harness/context.js';
import { conformanceResolver } from './harness/fake-network.js';
import { PORTAL_ORIGIN } from './members/role-table-portal-rows.js';

/** The keys of the suite's core, made by the suite (plain strings, so they can be sent to a server). */
export interface ConformanceKeys {
  /** The core's audit key (PKCS#8 PEM). */
  auditKeyPem: string;
  /** Public keys of other servers whose backups the core accepts. */
  trustedAuditKeys: string[];
  keyring: { current: string; keys: Record<string, string> };
  /** The OIDC issuers on loopback the core trusts (the suite's test issuer), once it has started. */
  trustedIssuers?: { issuer: string; ca: string }[];
}

/** What the core reaches outside itself: where deliveries go, its clock, where it logs failures. */
export interface ConformanceHooks {
  transport: Transport;
  /** The suite's clock: pinned by some tests, else the real time. */
  now: () => number;
  onError: (message: string, meta?: Record<string, unknown>) => void;
}

/** Every option of the suite's core but its store. */
export function conformanceCoreOptions(keys: ConformanceKeys, hooks: ConformanceHooks): CoreOptions {
  return {
    validateResponses: true,
    allowOrganizationCreation: true,
    auditKey: keys.auditKeyPem,
    trustedAuditKeys: keys.trustedAuditKeys,
    keyring: keys.keyring,
    trustedIssuers: keys.trustedIssuers ?? [],
    webhooks: {
      resolve: conformanceResolver,
      transport: hooks.transport,
      replay: { batch: CONFORMANCE_REPLAY_BATCH },
    },
    restores: { maxLineBytes: CONFORMANCE_MAX_LINE_BYTES },
    portal: { allowedOrigins: [PORTAL_ORIGIN, 'http://127.0.0.1:5173'], publicUrl: 'https://latchkey.test' },
    // Every lab and restore test creates an organization as admin; the bounds have tests of their own.
    limits: { organizationsPerUser: 1_000 },
    // The tests pin this clock to check the signed_at window at exact sub-second instants.
    now: hooks.now,
    logger: { error: hooks.onError },
  };
}
