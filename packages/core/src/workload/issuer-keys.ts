/**
 * Each issuer's signing keys, found through OIDC discovery (`{issuer}/.well-known/openid-configuration`
 * -> `jwks_uri`) and cached as long as the answers' `Cache-Control` allows (at most one hour). A
 * token whose `kid` the cached set lacks makes one more fetch, at most once per cooldown, so forged
 * `kid`s cannot make the server hammer an issuer. Concurrent misses share one fetch.
 */
import { createLocalJWKSet, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';
import { type IssuerFetch, IssuerFetchError } from './issuer-fetch.js';

/** How often an unknown `kid` may make the keys be fetched again, per issuer. */
const KID_REFETCH_COOLDOWN_MS = 10_000;
/** The most issuers whose keys are cached at once; the least recently fetched go first. */
const MAX_ISSUERS = 256;

type KeyLookup = ReturnType<typeof createLocalJWKSet>;

interface CachedKeys {
  lookup: KeyLookup;
  fetchedAt: number;
  expiresAt: number;
}

/** The key of a token's header, as `jwtVerify` takes it. */
export type IssuerKeys = (issuer: string, header: JWSHeaderParameters) => ReturnType<KeyLookup>;

/** Makes the cache over `fetch`, on the clock `now` (milliseconds). */
export function createIssuerKeys(fetch: IssuerFetch, now: () => number): IssuerKeys {
  const cache = new Map<string, CachedKeys>();
  const inFlight = new Map<string, Promise<CachedKeys>>();

  const load = (issuer: string): Promise<CachedKeys> => {
    let pending = inFlight.get(issuer);
    if (!pending) {
      pending = fetchKeys(fetch, issuer, now).finally(() => inFlight.delete(issuer));
      pending.then(
        (keys) => {
          cache.delete(issuer);
          cache.set(issuer, keys);
          if (cache.size > MAX_ISSUERS) cache.delete(cache.keys().next().value as string);
        },
        () => undefined,
      );
      inFlight.set(issuer, pending);
    }
    return pending;
  };

  return async (issuer, header) => {
    let keys = cache.get(issuer);
    if (!keys || keys.expiresAt <= now()) keys = await load(issuer);
    try {
      return await keys.lookup(header);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      if (now() - keys.fetchedAt < KID_REFETCH_COOLDOWN_MS) throw error;
      keys = await load(issuer);
      return await keys.lookup(header);
    }
  };
}

async function fetchKeys(fetch: IssuerFetch, issuer: string, now: () => number): Promise<CachedKeys> {
  const discovery = await fetch(issuer, `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`);
  const document = discovery.json as { issuer?: unknown; jwks_uri?: unknown } | null;
  if (!document || typeof document !== 'object' || document.issuer !== issuer)
    throw new IssuerFetchError('the discovery document does not name this issuer');
  if (typeof document.jwks_uri !== 'string')
    throw new IssuerFetchError('the discovery document has no jwks_uri');
  const jwks = await fetch(issuer, document.jwks_uri);
  const set = jwks.json as JSONWebKeySet | null;
  if (!set || typeof set !== 'object' || !Array.isArray(set.keys))
    throw new IssuerFetchError('the jwks_uri answer is not a key set');
  const fetchedAt = now();
  const seconds = Math.min(discovery.maxAgeSeconds, jwks.maxAgeSeconds);
  return { lookup: createLocalJWKSet(set), fetchedAt, expiresAt: fetchedAt + seconds * 1000 };
}
