/**
 * `latchkey history` and `latchkey rollback` against the Express example server: a key pushed 15
 * times lists its versions, rollback restores version 7 as version 16 through a signed push that
 * the activity log shows, a version without a kept value or a tombstone is refused, and a push made
 * between rollback's read and its push (injected by a proxy in front of the server) makes it exit 3
 * and write nothing.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { TOKEN, useCliServer } from './cli-harness.js';

const ENV = '/organizations/acme/projects/web/environments/prod';
// Each command is a process started under tsx: a few dozen of them outlast the default timeout.

describe('latchkey history and rollback against a real server', () => {
  const { machine, api, file, url } = useCliServer();
  const servers: Server[] = [];
  afterAll(() => {
    for (const server of servers) server.close();
  });

  const head = async (key: string) => {
    const { json } = await api('GET', `${ENV}/secrets`);
    return (json['secrets'] as { key: string; value: string; version: number }[]).find((s) => s.key === key);
  };

  it('lists 15 versions, and rolls back to version 7 as version 16 that the activity log shows', async () => {
    const alice = machine('alice');
    expect((await alice('device', 'enroll', '--name', 'laptop')).code).toBe(0);
    for (let i = 1; i <= 15; i++) {
      writeFileSync(file('roll.env'), `ROLL=value-${i}\n`);
      const pushed = await alice('push', 'roll.env');
      expect(pushed.code, pushed.stderr).toBe(0);
    }
    const table = await alice('history', 'ROLL');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/version\s+change\s+when\s+by\s+device\s+event/);
    expect(table.stdout).toMatch(/15\s+set\s+\S+\s+admin\s+dev_/);
    expect(table.stdout).not.toContain('value-');
    const listed = JSON.parse((await alice('history', 'ROLL', '--json', '--limit', '100')).stdout) as {
      versions: { version: number; value?: string }[];
    };
    expect(listed.versions.map((v) => v.version)).toEqual([
      15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
    ]);

    const rolled = await alice('rollback', 'ROLL', '--to', '7', '--json');
    expect(rolled.code, rolled.stderr).toBe(0);
    const result = JSON.parse(rolled.stdout) as { version: number; event_id: string };
    expect(result).toMatchObject({ key: 'ROLL', from: 15, to: 7, version: 16 });
    expect(await head('ROLL')).toMatchObject({ value: 'value-7', version: 16 });

    const { json } = await api('GET', `${ENV}/history?limit=5`);
    const events = json['events'] as { id: string; type: string; data: Record<string, unknown> }[];
    const applied = events.find((e) => e.id === result.event_id);
    expect(applied).toMatchObject({
      type: 'push_applied',
      data: { versions: [{ key: 'ROLL', version: 16, deleted: false }] },
    });
    const read = events.find((e) => e.type === 'secret_versions_read');
    expect(read?.data).toEqual({ key: 'ROLL', versions: [15, 14, 13, 12, 11, 10, 9, 8, 7] });
  }, 120_000);

  it('refuses a version whose value is no longer kept, a tombstone, and the current version', async () => {
    const alice = machine('alice');
    const pruned = await alice('rollback', 'ROLL', '--to', '3');
    expect(pruned.code).toBe(1);
    expect(pruned.stderr).toMatch(/Version 3 of ROLL no longer keeps its value/);
    // Another machine (its own pulled versions) writes TOMB and deletes it.
    const tom = machine('tom');
    expect((await tom('device', 'enroll', '--name', 'tom')).code).toBe(0);
    expect((await tom('pull', '--out', 'tomb.env')).code).toBe(0);
    writeFileSync(file('tomb.env'), `${readFileSync(file('tomb.env'), 'utf8')}TOMB=alive\n`);
    expect((await tom('push', 'tomb.env')).code).toBe(0);
    writeFileSync(file('tomb.env'), readFileSync(file('tomb.env'), 'utf8').replace('TOMB=alive\n', ''));
    expect((await tom('push', 'tomb.env')).code).toBe(0);
    const tombstone = await alice('rollback', 'TOMB', '--to', '2');
    expect(tombstone.code).toBe(1);
    expect(tombstone.stderr).toMatch(/Version 2 of TOMB is a delete/);
    expect((await alice('rollback', 'ROLL', '--to', '16')).stderr).toMatch(/already the current version/);
    expect((await alice('rollback', 'ROLL', '--to', '99')).stderr).toMatch(/has no version 99/);
    expect((await alice('rollback', 'ROLL', '--to', 'seven')).code).toBe(2);
    // Undeleting is a rollback to the last version with a value.
    expect((await alice('rollback', 'TOMB', '--to', '1')).code).toBe(0);
    expect(await head('TOMB')).toMatchObject({ value: 'alive', version: 3 });
  }, 120_000);

  it('exits 3 and writes nothing when a push lands between its read and its push', async () => {
    // Bob races from his own machine, straight to the server.
    const bob = machine('bob');
    expect((await bob('device', 'enroll', '--name', 'desktop')).code).toBe(0);
    expect((await bob('pull', '--out', 'bob.env')).code).toBe(0);
    let raced = false;
    let carolEnrolled = false;
    // A proxy in front of the server lets Carol's rollback read, then makes Bob push, then forwards
    // her push: the order is fixed, not left to timing.
    const proxy = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      if (request.method === 'POST' && request.url?.endsWith('/push') && !raced && carolEnrolled) {
        raced = true;
        writeFileSync(
          file('bob.env'),
          readFileSync(file('bob.env'), 'utf8').replace(/^ROLL=.*$/m, 'ROLL=bob-wins'),
        );
        const pushed = await bob('push', 'bob.env');
        expect(pushed.code, pushed.stderr).toBe(0);
      }
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'accept', 'user-agent']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const upstream = await fetch(`${url()}${request.url}`, {
        method: request.method!,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? '' });
      response.end(Buffer.from(await upstream.arrayBuffer()));
    });
    servers.push(proxy);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const carol = machine('carol', TOKEN, { LATCHKEY_URL: proxyUrl });
    expect((await carol('device', 'enroll', '--name', 'carol')).code).toBe(0);
    carolEnrolled = true;

    const before = await head('ROLL');
    expect(before).toMatchObject({ value: 'value-7', version: 16 });
    const rolled = await carol('rollback', 'ROLL', '--to', '15');
    expect(raced).toBe(true);
    expect(rolled.code).toBe(3);
    expect(rolled.stderr).toMatch(/changed on the server after version 16 was read: nothing was written/);
    // Bob's push is the head; Carol's rollback wrote no version.
    expect(await head('ROLL')).toMatchObject({ value: 'bob-wins', version: 17 });
    const { json } = await api('GET', `${ENV}/secrets/ROLL/versions?limit=2`);
    expect((json['versions'] as { version: number }[]).map((v) => v.version)).toEqual([17, 16]);
  }, 60_000);
});
