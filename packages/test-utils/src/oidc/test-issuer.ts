/**
 * An OIDC issuer on loopback HTTPS for tests, playing GitHub's or GitLab's part: a discovery
 * document, a JWKS with an RS256, an ES256 and an Ed25519 (EdDSA) key, and an ES384 and a PS256
 * key the contract refuses (each with its `kid`), rotation, and counts of every fetch, so a test
 * can tell a cached key from a fetched one. Tokens are signed with `jose`.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT } from 'jose';
import { makeLoopbackCertificate } from '../certificates/loopback-certificate.js';

/** The algorithms the issuer signs with: the contract's three, and two it refuses. */
export type TestIssuerAlg = 'RS256' | 'ES256' | 'EdDSA' | 'ES384' | 'PS256';

const ALGORITHMS: readonly TestIssuerAlg[] = ['RS256', 'ES256', 'EdDSA', 'ES384', 'PS256'];

interface IssuerKey {
  kid: string;
  alg: TestIssuerAlg;
  privateKey: CryptoKey;
  jwk: JWK;
  publicPem: string;
}

/** A running test issuer. */
export interface TestIssuer {
  /** `https://<host>:<port>`: what its tokens' `iss` says. */
  issuer: string;
  /** The PEM certificate its server presents (trust it as a CA). */
  ca: string;
  /** Where the certificate is, for `NODE_EXTRA_CA_CERTS`. */
  caFile: string;
  /** How many times each document was fetched. */
  fetches: { discovery: number; jwks: number };
  /** The `Cache-Control` its answers carry (default `max-age=300`). */
  cacheControl: string;
  /** The `kid` of the current key of each algorithm. */
  kid(alg: TestIssuerAlg): string;
  /** A signed ID token: `iss`, `iat`, `exp` (+300 s) and a fresh `jti` filled in unless given (null leaves one out). */
  sign(claims: Record<string, unknown>, options?: SignOptions): Promise<string>;
  /** The current key of `alg`, as SPKI PEM (an attacker who knows it may try it as an HMAC secret). */
  publicPem(alg: TestIssuerAlg): string;
  /** Replaces the key of `alg` with a new one of a new `kid`; the JWKS then lists only the new one. */
  rotate(alg: TestIssuerAlg): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link TestIssuer.sign}. */
export interface SignOptions {
  alg?: TestIssuerAlg;
  /** The `kid` the header names (default: the key's own). */
  kid?: string;
  /** The clock, in seconds (default now). */
  nowSeconds?: number;
}

let keyCount = 0;

async function newKey(alg: TestIssuerAlg): Promise<IssuerKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `${alg.toLowerCase()}-${++keyCount}`;
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, jwk, publicPem: await exportSPKI(publicKey) };
}

/** Starts an issuer on 127.0.0.1 whose certificate names `host` (`localhost` by default). */
export async function startTestIssuer(host = 'localhost'): Promise<TestIssuer> {
  const dir = mkdtempSync(join(tmpdir(), 'lk-issuer-'));
  const certificate = makeLoopbackCertificate(dir, host);
  const keys = new Map<TestIssuerAlg, IssuerKey>();
  for (const alg of ALGORITHMS) keys.set(alg, await newKey(alg));
  const state = { issuer: '', cacheControl: 'max-age=300', fetches: { discovery: 0, jwks: 0 } };
  const server: Server = createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    const answer = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': state.cacheControl });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration') {
      state.fetches.discovery++;
      answer({
        issuer: state.issuer,
        jwks_uri: `${state.issuer}/keys`,
        id_token_signing_alg_values_supported: ALGORITHMS,
      });
    } else if (req.url === '/keys') {
      state.fetches.jwks++;
      answer({ keys: [...keys.values()].map((k) => k.jwk) });
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.issuer = `https://${host}:${(server.address() as AddressInfo).port}`;
  let jtis = 0;
  return {
    get issuer() {
      return state.issuer;
    },
    ca: certificate.cert.toString('utf8'),
    caFile: certificate.certFile,
    fetches: state.fetches,
    get cacheControl() {
      return state.cacheControl;
    },
    set cacheControl(value: string) {
      state.cacheControl = value;
    },
    kid: (alg) => keys.get(alg)!.kid,
    publicPem: (alg) => keys.get(alg)!.publicPem,
    async sign(claims, options = {}) {
      const key = keys.get(options.alg ?? 'RS256')!;
      const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
      const full: Record<string, unknown> = {
        iss: state.issuer,
        iat: now,
        exp: now + 300,
        jti: `jti-${++jtis}-${now}`,
        ...claims,
      };
      for (const [name, value] of Object.entries(full)) if (value === null) delete full[name];
      return new SignJWT(full)
        .setProtectedHeader({ alg: key.alg, kid: options.kid ?? key.kid, typ: 'JWT' })
        .sign(key.privateKey);
    },
    async rotate(alg) {
      keys.set(alg, await newKey(alg));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
