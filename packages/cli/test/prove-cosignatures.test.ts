/**
 * `latchkey activity prove` names only cosignatures it verified: behind a hostile proxy on loopback
 * that invents witnesses (lines in the note and entries in `cosignatures`), it names none of them,
 * counts every line no pinned `--witness-key` verifies, names the pinned witness whose line
 * verifies, and exits 5 when the proxy spoils that witness's line, or serves another organization's
 * note relabelled under acme's key name and key hash.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, useCliServer } from './cli-harness.js';

const world = useCliServer();
const INVENTED = ['invented-witness.example/one', 'invented-witness.example/two'];

/** What the proxy does to checkpoint answers. */
let mode: 'invent' | 'spoil' | 'relabel' = 'invent';
/** In `relabel` mode: another organization's note, served under acme's key name and key hash. */
let relabelled = '';

function invent(json: { note: string; cosignatures: { witness: string; timestamp: number }[] }) {
  if (mode === 'relabel') {
    json.note = relabelled;
    return;
  }
  for (const name of INVENTED) {
    json.note += `\u2014 ${name} ${randomBytes(76).toString('base64')}\n`;
    json.cosignatures.push({ witness: name, timestamp: Math.floor(Date.now() / 1000) });
  }
  if (mode === 'spoil') {
    // Change one character in the middle of the real witness's signature: still canonical base64.
    json.note = json.note.replace(/(\u2014 auditor\.example\/w1 .{50})(.)/, (_, head: string, c: string) => {
      return `${head}${c === 'A' ? 'B' : 'A'}`;
    });
  }
}

async function body(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('latchkey activity prove behind a proxy that invents witnesses', () => {
  let proxy: Server;
  let proxyUrl = '';
  let witnessKey = '';

  beforeAll(async () => {
    proxy = createServer(async (request, response) => {
      const sent = await body(request);
      const upstream = await fetch(`${world.url()}${request.url}`, {
        method: request.method!,
        headers: Object.fromEntries(
          ['authorization', 'content-type', 'accept']
            .filter((h) => request.headers[h])
            .map((h) => [h, String(request.headers[h])]),
        ),
        body: sent.length ? new Uint8Array(sent) : undefined,
      });
      let text = await upstream.text();
      const type = upstream.headers.get('content-type') ?? 'application/json';
      if (/\/activity\/checkpoint(\?|$)/.test(request.url!) && type.startsWith('application/json')) {
        const json = JSON.parse(text);
        invent(json);
        text = JSON.stringify(json);
      }
      response.writeHead(upstream.status, { 'content-type': type }).end(text);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

    // A real witness, registered and cosigning the current head over the direct connection.
    const keyFile = world.file('prove-witness.pem');
    execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', keyFile]);
    const direct = world.machine('prove-direct');
    const key = JSON.parse(
      (await direct('--json', 'activity', 'witness-key', keyFile, '--name', 'auditor.example/w1')).stdout,
    );
    witnessKey = key.verifier_key;
    const added = await world.api('POST', '/organizations/acme/activity/witnesses', {
      name: key.name,
      public_key: key.public_key,
    });
    expect(added.status).toBe(201);
    const cosigned = await direct('activity', 'witness', '--cosign', keyFile, '--name', key.name);
    expect(cosigned.code, cosigned.stderr).toBe(0);
    expect(cosigned.stdout).toContain('Cosigned as auditor.example/w1 and posted; the server kept it.');
  });

  afterAll(async () => {
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it('names no invented witness, counts what it could not verify, names the pinned one', async () => {
    mode = 'invent';
    const proxied = world.machine('prove-proxied', TOKEN, { LATCHKEY_URL: proxyUrl });
    // The log key, pinned through the proxy on first use (the proxy leaves the log's own line alone).
    expect((await proxied('activity', 'witness')).code).toBe(0);

    const unpinned = await proxied('activity', 'prove', '1');
    expect(unpinned.code, unpinned.stderr).toBe(0);
    expect(unpinned.stdout).not.toContain('invented');
    expect(unpinned.stdout).not.toContain('cosigned by');
    expect(unpinned.stdout).toContain('valid; 3 cosignatures not verified (no pinned key).');

    const pinned = await proxied('activity', 'prove', '1', '--witness-key', witnessKey);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(pinned.stdout).not.toContain('invented');
    expect(pinned.stdout).toContain(
      'cosigned by auditor.example/w1 (pinned witness keys); 2 cosignatures not verified (no pinned key).',
    );
    const json = JSON.parse(
      (await proxied('--json', 'activity', 'prove', '1', '--witness-key', witnessKey)).stdout,
    );
    expect(json).toMatchObject({ cosigned_by: ['auditor.example/w1'], cosignatures_not_verified: 2 });
  });

  it('refuses another organization’s note relabelled under the pinned key’s name and hash', async () => {
    mode = 'invent';
    const proxied = world.machine('prove-relabel', TOKEN, { LATCHKEY_URL: proxyUrl });
    const first = await proxied('--json', 'activity', 'witness');
    expect(first.code, first.stderr).toBe(0);
    const pinned = JSON.parse(first.stdout).verifier_key as string;
    const created = await world.api('POST', '/organizations', { slug: 'globex' });
    expect(created.status).toBe(201);
    const owner = created.json['token'] as string; // the new organization's owner token
    const answer = await world.api('GET', '/organizations/globex/activity/checkpoint', undefined, owner);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    const globex = answer.json as { note: string };
    const [name, hash] = pinned.split('+') as [string, string];
    const [text, lines] = globex.note.split('\n\n') as [string, string];
    const value = Buffer.from(lines.split(' ')[2]!, 'base64').subarray(4);
    relabelled = `${text}\n\n\u2014 ${name} ${Buffer.concat([Buffer.from(hash, 'hex'), value]).toString('base64')}\n`;
    mode = 'relabel';
    const refused = await proxied('activity', 'witness');
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('does not open');
    const proved = await proxied('activity', 'prove', '1');
    expect(proved.code).toBe(5);
  });

  it('exits 5 when a pinned witness’s cosignature does not verify, 2 on a malformed witness key', async () => {
    mode = 'spoil';
    const proxied = world.machine('prove-spoiled', TOKEN, { LATCHKEY_URL: proxyUrl });
    expect((await proxied('activity', 'witness')).code).toBe(0);
    const spoiled = await proxied('activity', 'prove', '1', '--witness-key', witnessKey);
    expect(spoiled.code).toBe(5);
    expect(spoiled.stderr).toContain('The cosignature of auditor.example/w1 does not verify.');
    expect(spoiled.stdout).toBe('');
    const malformed = await proxied('activity', 'prove', '1', '--witness-key', 'auditor.example/w1+00+AAAA');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('is not a witness');
    const noLogKey = await world.machine('prove-keyless')(
      'activity',
      'prove',
      '1',
      '--witness-key',
      witnessKey,
    );
    expect(noLogKey.code).toBe(2);
  });
});
