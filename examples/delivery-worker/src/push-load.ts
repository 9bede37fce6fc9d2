/**
 * Load for the fault tests: a few clients, each with its own enrolled device, send signed pushes
 * (each a new key with its own value, so every outcome can be found, or not found, in the chain
 * afterwards) and pulls, round-robin over several servers, and record every answer with when it
 * was asked and answered.
 */
import { randomBytes } from 'node:crypto';
import { type DeviceKeyPair, signPush } from '@latchkey/core';

/** One request and its answer (`status` 0: no HTTP answer at all, `code` then says why). */
export interface Outcome {
  kind: 'push' | 'pull';
  server: string;
  startedAt: number;
  endedAt: number;
  status: number;
  code: string | null;
  retryAfter: string | null;
  /** Pushes: the key and value sent, and the event id of a 200. */
  key?: string;
  value?: string;
  eventId?: string;
}

/** What a client pushes to. */
export interface LoadTarget {
  servers: string[];
  token: string;
  /** `/api/v2/organizations/<org>/projects/<project>/environments/<env>` */
  environmentPath: string;
  address: { organization: string; project: string; environment: string };
  devices: { id: string; keys: DeviceKeyPair }[];
}

/** A running load: `stop()` ends it once the requests in flight are answered. */
export interface Load {
  readonly outcomes: Outcome[];
  stop(): Promise<void>;
}

async function send(
  url: string,
  token: string,
  init: { method: string; body?: unknown },
): Promise<{ status: number; code: string | null; retryAfter: string | null; json: unknown }> {
  try {
    const response = await fetch(url, {
      method: init.method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      // Longer than any answer may take: a push whose commit was cut waits for the database to say
      // whether it was applied.
      signal: AbortSignal.timeout(30_000),
    });
    const json = (await response.json()) as { error?: { code?: string } };
    return {
      status: response.status,
      code: json.error?.code ?? null,
      retryAfter: response.headers.get('retry-after'),
      json,
    };
  } catch (error) {
    return { status: 0, code: (error as Error).message, retryAfter: null, json: null };
  }
}

/** Sends one request to `server` and records when it was asked and answered, with the answer's JSON. */
async function ask(
  kind: Outcome['kind'],
  server: string,
  path: string,
  token: string,
  init: { method: string; body?: unknown },
): Promise<{ outcome: Outcome; json: unknown }> {
  const startedAt = performance.now();
  const answer = await send(`${server}${path}`, token, init);
  const { status, code, retryAfter } = answer;
  return {
    outcome: { kind, server, startedAt, endedAt: performance.now(), status, code, retryAfter },
    json: answer.json,
  };
}

/** Starts one pushing client per device and one puller; `pauseMs` between each client's requests. */
export function startLoad(target: LoadTarget, pauseMs = 10): Load {
  const outcomes: Outcome[] = [];
  const run = randomBytes(3).toString('hex');
  let running = true;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const pusher = async (client: number) => {
    const device = target.devices[client]!;
    for (let n = 0; running; n++) {
      const server = target.servers[(client + n) % target.servers.length]!;
      const key = `LOAD_${run}_${client}_${n}`;
      const value = `value-${client}-${n}-${randomBytes(6).toString('hex')}`;
      const body = signPush(
        { device_id: device.id, changes: [{ key, value, if_version: 0 }] },
        target.address,
        device.keys.privateKey,
      );
      const { outcome, json } = await ask('push', server, `${target.environmentPath}/push`, target.token, {
        method: 'POST',
        body,
      });
      outcomes.push({
        ...outcome,
        key,
        value,
        ...(outcome.status === 200 ? { eventId: (json as { event_id: string }).event_id } : {}),
      });
      // A client that honoured Retry-After would wait longer; this one keeps the servers busy.
      await pause(outcome.status === 503 ? 200 : pauseMs);
    }
  };

  const puller = async () => {
    for (let n = 0; running; n++) {
      const server = target.servers[n % target.servers.length]!;
      const { outcome } = await ask('pull', server, `${target.environmentPath}/secrets`, target.token, {
        method: 'GET',
      });
      outcomes.push(outcome);
      await pause(50);
    }
  };

  const clients = [...target.devices.map((_, i) => pusher(i)), puller()];
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}
