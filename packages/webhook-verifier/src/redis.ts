/**
 * @latchkey/webhook-verifier/redis: a replay store shared by every receiver instance, on Redis.
 * Works with an ioredis client as is; any other client can be adapted (see {@link RedisReplayClient}).
 */
import type { ReplayStore } from './replay-store.js';

// One atomic step: set if absent; otherwise only ever lengthen the expiry (see ReplayStore.claim).
// Scripts run atomically and with time frozen, so the key cannot vanish between the two calls.
const CLAIM_SCRIPT = `if redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then return 1 end
local left = redis.call('PTTL', KEYS[1])
if left >= 0 and left < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 0`;

/**
 * The two Redis commands the store uses, in ioredis's calling convention: an ioredis `Redis` or
 * `Cluster` fits as is. For node-redis, adapt it:
 * `{ eval: (script, n, ...a) => client.eval(script, { keys: a.slice(0, n).map(String), arguments: a.slice(n).map(String) }), del: (k) => client.del(k) }`.
 */
export interface RedisReplayClient {
  /** `EVAL script numKeys ...keys ...args`. */
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  /** `DEL key`. */
  del(key: string): Promise<unknown>;
}

/** Options of {@link createRedisReplayStore}. */
export interface RedisReplayStoreOptions {
  /** A connected client. The store never closes it. */
  client: RedisReplayClient;
  /** Key prefix; give each webhook (or secret set) its own when they share a database. */
  prefix?: string;
}

/**
 * Replay store on Redis (2.6.12 or later, for Lua and `SET ... PX NX`; Valkey too): `claim` is one atomic
 * script, so exactly one of any number of concurrent receivers wins an id. The expiry is computed from
 * the verifier's clock and sent as a relative TTL, so Redis's own clock does not matter.
 */
export function createRedisReplayStore(options: RedisReplayStoreOptions): ReplayStore {
  const { client } = options;
  const prefix = options.prefix ?? 'latchkey:webhook-replay:';
  if (typeof client?.eval !== 'function' || typeof client.del !== 'function') {
    throw new TypeError('client must have eval() and del() (an ioredis client, or an adapter)');
  }
  return {
    async claim(id, expiresAt, now) {
      // PX must be positive; an id whose window closes right now still has to be held for a moment.
      const ttl = Math.max(1, Math.ceil(expiresAt - now));
      const reply = await client.eval(CLAIM_SCRIPT, 1, prefix + id, ttl);
      return Number(reply) === 1;
    },
    async release(id) {
      await client.del(prefix + id);
    },
  };
}
