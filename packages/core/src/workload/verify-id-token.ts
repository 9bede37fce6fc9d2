/**
 * The checks of an ID token against a workload identity, in the order they answer: the form and
 * algorithm (RS256, ES256, EdDSA only: never `none` or HMAC), the issuer, the signature under the
 * issuer's keys, `aud`, `exp` (in the future, at most one hour after `iat`), `iat`/`nbf` (at most
 * 60 s ahead), `sub`, every listed claim, and a `jti`. JOSE is `jose`'s; a refusal names the check.
 */
import { decodeJwt, decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from 'jose';
import type { WorkloadIdentity } from '../model/workload.js';
import { IssuerFetchError } from './issuer-fetch.js';
import type { IssuerKeys } from './issuer-keys.js';

/** The algorithms an ID token may be signed with. */
const ID_TOKEN_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
/** How far ahead of the server's clock `iat` and `nbf` may be, in seconds. */
const CLOCK_SKEW_SECONDS = 60;
/** The longest an ID token may live, `exp` minus `iat`, in seconds. */
const MAX_ID_TOKEN_LIFETIME_SECONDS = 3600;

/** A failed check: `check` names it (`alg`, `iss`, `signature`, `aud`, `exp`, …), never the token. */
export class IdTokenRefusal extends Error {
  override name = 'IdTokenRefusal';
  constructor(
    readonly check: string,
    message: string,
  ) {
    super(message);
  }
}

/** What a verified ID token says, for the exchange and its event. */
export interface VerifiedIdToken {
  iss: string;
  sub: string;
  aud: string[];
  jti: string;
  /** The identity's listed claims, as the token holds them. */
  claims: Record<string, string>;
  /** `exp`, in milliseconds. */
  expiresAt: number;
}

const refuse = (check: string, message: string): never => {
  throw new IdTokenRefusal(check, message);
};

/** Verifies `idToken` for `identity` with the issuer's keys at `nowMs`; an {@link IdTokenRefusal} if not. */
export async function verifyIdToken(
  idToken: string,
  identity: WorkloadIdentity,
  keys: IssuerKeys,
  nowMs: number,
): Promise<VerifiedIdToken> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  let unverified: JWTPayload;
  try {
    header = decodeProtectedHeader(idToken);
    unverified = decodeJwt(idToken);
  } catch {
    return refuse('format', 'not a signed JWT (JWS compact serialization)');
  }
  if (!(ID_TOKEN_ALGORITHMS as readonly unknown[]).includes(header.alg))
    refuse('alg', `alg must be one of ${ID_TOKEN_ALGORITHMS.join(', ')}`);
  // Before any key is fetched: a token of another issuer never makes us ask this one for keys.
  if (unverified.iss !== identity.issuer) refuse('iss', 'iss is not the identity’s issuer');
  const payload = await verified(idToken, identity, keys, nowMs);
  return checkClaims(payload, identity, nowMs);
}

async function verified(
  idToken: string,
  identity: WorkloadIdentity,
  keys: IssuerKeys,
  nowMs: number,
): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(idToken, (header) => keys(identity.issuer, header), {
      algorithms: [...ID_TOKEN_ALGORITHMS],
      issuer: identity.issuer,
      audience: identity.audience,
      currentDate: new Date(nowMs),
      clockTolerance: CLOCK_SKEW_SECONDS,
      requiredClaims: ['exp', 'iat', 'sub', 'jti'],
    });
    return payload;
  } catch (error) {
    throw refusalOf(error);
  }
}

function refusalOf(error: unknown): IdTokenRefusal {
  if (error instanceof IdTokenRefusal) return error;
  if (error instanceof IssuerFetchError)
    return new IdTokenRefusal('issuer_keys', `the issuer's keys could not be read (${error.message})`);
  if (error instanceof errors.JWTExpired) return new IdTokenRefusal('exp', 'the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    const claim = error.claim || 'claims';
    return new IdTokenRefusal(claim, `the ${claim} claim is missing or does not match`);
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return new IdTokenRefusal('kid', 'no key of the issuer matches the token’s kid and alg');
  if (error instanceof errors.JWKSMultipleMatchingKeys)
    return new IdTokenRefusal('kid', 'the token names no kid and the issuer has several keys');
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new IdTokenRefusal('signature', 'the signature does not verify with the issuer’s key');
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return new IdTokenRefusal('alg', 'the algorithm or key type is not accepted');
  return new IdTokenRefusal('format', 'the token is malformed');
}

function checkClaims(payload: JWTPayload, identity: WorkloadIdentity, nowMs: number): VerifiedIdToken {
  const now = Math.floor(nowMs / 1000);
  const { exp, iat, nbf, sub, jti } = payload;
  if (typeof exp !== 'number' || exp <= now) refuse('exp', 'the token has expired');
  if (typeof iat !== 'number' || iat > now + CLOCK_SKEW_SECONDS)
    refuse('iat', 'the token is issued in the future');
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now + CLOCK_SKEW_SECONDS))
    refuse('nbf', 'the token is not valid yet');
  if ((exp as number) - (iat as number) > MAX_ID_TOKEN_LIFETIME_SECONDS)
    refuse('lifetime', `the token lives longer than ${MAX_ID_TOKEN_LIFETIME_SECONDS} s (exp - iat)`);
  if (sub !== identity.subject) refuse('sub', 'sub is not the identity’s subject');
  const claims: Record<string, string> = {};
  for (const [name, expected] of Object.entries(identity.claims)) {
    if (payload[name] !== expected) refuse(`claim ${name}`, `the ${name} claim is missing or does not match`);
    claims[name] = expected;
  }
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 200)
    refuse('jti', 'the token has no usable jti (one to 200 characters)');
  const aud = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
  return {
    iss: identity.issuer,
    sub: sub as string,
    aud,
    jti: jti as string,
    claims,
    expiresAt: (exp as number) * 1000,
  };
}
