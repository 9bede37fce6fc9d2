/**
 * The fixed workload every server of the footprint benchmark answers, over HTTP as a client would:
 * pushes, history pages, an activity export and a backup, one after the other.
 */
import { generateDeviceKeyPair, signPush } from '@latchkey/core';

/** The admin token every server is started with (`LATCHKEY_BOOTSTRAP_ADMIN_TOKEN`). */
export const TOKEN = 'lk_bench_footprint_admin_token_0000000000000';
const ORG = '/api/v2/organizations/acme';
const ADDRESS = { organization: 'acme', project: 'web', environment: 'prod' };
const ENV_PATH = `${ORG}/projects/web/environments/prod`;

/** How much of each part the workload does. */
export const WORKLOAD = { pushes: 300, concurrency: 4, historyPages: 100, pageSize: 100 };

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function send(base: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(base + path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/** POSTs `body`; a 409 (already there, on a seeded directory) is as good as a 201. */
async function ensure(base: string, path: string, body: unknown): Promise<unknown> {
  const response = await send(base, 'POST', path, body);
  if (response.status !== 201 && response.status !== 409)
    throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Reads a streamed body to its end, counting bytes (so the client never holds it). */
async function drain(response: Response): Promise<number> {
  if (response.status !== 200) throw new Error(`answered ${response.status}: ${await response.text()}`);
  const reader = response.body!.getReader();
  let bytes = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
  return bytes;
}

/** The project and environment the pushes go to, and a device of the admin's to sign them. */
export async function prepareWorkload(base: string) {
  await ensure(base, `${ORG}/projects`, { slug: 'web' });
  await ensure(base, `${ORG}/projects/web/environments`, { slug: 'prod' });
  const keys = generateDeviceKeyPair();
  const device = (await ensure(base, `${ORG}/devices`, {
    name: 'footprint',
    public_key: keys.publicKey,
  })) as {
    id: string;
  };
  return { keys, deviceId: device.id };
}

/** Runs the workload against `base`; resolves with what each part moved, and the pushes' pace. */
export async function runWorkload(base: string, device: Awaited<ReturnType<typeof prepareWorkload>>) {
  const run = `${process.pid}_${Date.now().toString(36)}`;
  let next = 0;
  const pusher = async () => {
    while (next < WORKLOAD.pushes) {
      const i = next++;
      const body = signPush(
        {
          device_id: device.deviceId,
          conflict_mode: 'lenient',
          changes: [{ key: `FOOTPRINT_${run}_${i}`, value: `value-${i}-0123456789abcdef`, if_version: 0 }],
        },
        ADDRESS,
        device.keys.privateKey,
      );
      const response = await send(base, 'POST', `${ENV_PATH}/push`, body);
      if (response.status !== 200)
        throw new Error(`push answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  const pushing = performance.now();
  await Promise.all(Array.from({ length: WORKLOAD.concurrency }, pusher));
  const pushesPerSecond = WORKLOAD.pushes / ((performance.now() - pushing) / 1000);
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = `?limit=${WORKLOAD.pageSize}${cursor ? `&cursor=${cursor}` : ''}`;
    const page = (await (await send(base, 'GET', `${ORG}/history${query}`)).json()) as {
      next_cursor: string | null;
    };
    cursor = page.next_cursor;
    pages++;
  } while (cursor && pages < WORKLOAD.historyPages);
  const exported = await drain(await send(base, 'GET', `${ORG}/activity/export`));
  const backup = await drain(await send(base, 'GET', `${ORG}/backup`));
  return { pushes: WORKLOAD.pushes, pushesPerSecond, pages, exportBytes: exported, backupBytes: backup };
}
