/**
 * What the parts of the HTTP conformance suite share: the core under test, the target that reaches
 * it, the members set up once, a clock the tests can pin, and request helpers. `describeHttpConformance`
 * fills it in `beforeAll`; each part reads it inside its tests.
 */
import type { ActivityEvent, Core, DeviceKeyPair, UnsignedPush } from '@latchkey/core';
import type { TestIssuer } from '../../oidc/test-issuer.js';
import type { conformanceTransport } from './fake-network.js';
import type { HttpTarget, StartTarget, TargetResponse } from './http-target.js';

/** Token of the bootstrap user `admin`, who is an owner of `acme`. */
export const ADMIN = 'lk_conformance_admin_token_acme_0000000000000';
/** Token of the owner of the other organization, `globex`. */
export const OTHER_ORG_ADMIN = 'lk_conformance_admin_token_globex_00000000000';
export const ENV_PATH = '/api/v2/organizations/acme/projects/web/environments/prod';
export const ADDRESS = { organization: 'acme', project: 'web', environment: 'prod' };
/** The suite's core reads lines of restored content up to 2 MiB (core option `restores.maxLineBytes`), so a test can pass it cheaply. */
export const CONFORMANCE_MAX_LINE_BYTES = 2 * 1_048_576;

/** Events of a replay the suite's core queues at a time (core option `webhooks.replay.batch`). */
export const CONFORMANCE_REPLAY_BATCH = 20;

/** A member with an API token and one enrolled device. */
export interface Member {
  token: string;
  keys: DeviceKeyPair;
  deviceId: string;
}

/** The server clock the suite's core reads: `pinnedMs` when set, else the real time. */
export interface TestClock {
  pinnedMs: number | null;
}

/** State and helpers shared by every part of the suite. */
export interface ConformanceContext {
  core: Core;
  target: HttpTarget;
  /** Serves another core as the suite serves its own (the same adapter), for tests of core options. */
  serve: StartTarget;
  /** The bootstrap owner (user `admin`) with a device. */
  admin: Member;
  /** A developer granted web/prod, with a device. */
  developer: Member;
  viewerToken: string;
  /** The raw public key of the core's audit key, as an auditor pins it. */
  auditPublicKey: string;
  /** The audit key of another server, which the core trusts (core option `trustedAuditKeys`). */
  trustedAuditKey: { privateKeyPem: string; publicKey: string };
  clock: TestClock;
  /** The OIDC issuer on loopback HTTPS the suite's core trusts (core option `trustedIssuers`). */
  issuer: TestIssuer;
  /** The keyring of the suite's core (a delivery engine of a test opens signing secrets with it). */
  keyring: { current: string; keys: Record<string, string> };
  /** The fake transport audit webhook deliveries of the suite's core go through. */
  webhookTransport: ReturnType<typeof conformanceTransport>;
  send(
    method: string,
    path: string,
    body?: unknown,
    token?: string | null,
    headers?: Record<string, string>,
  ): Promise<TargetResponse>;
  push(
    who: Member,
    push: Omit<UnsignedPush, 'device_id'>,
    address?: typeof ADDRESS,
    path?: string,
  ): Promise<TargetResponse>;
  /** Enrolls a new device for the holder of `token`. */
  enroll(token: string): Promise<Member>;
  /** Adds a member (as the owner) and returns a new token of theirs. */
  addMember(user: string, role: string, grants?: unknown): Promise<string>;
  /** The live secrets of an environment (default web/prod), as the owner pulls them. */
  pull(path?: string): Promise<{ key: string; value: string; version: number }[]>;
  /** Events of `acme`, newest first. */
  events(type?: string): Promise<ActivityEvent[]>;
}
