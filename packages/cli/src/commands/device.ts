/**
 * `latchkey device enroll|list|revoke`: the Ed25519 key that signs this machine's pushes. `enroll`
 * writes the private key (PKCS#8 PEM, mode 0600; it never leaves the machine), sends the public key,
 * and remembers the device id and key path for this server and organization.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateDeviceKeyPair } from '@latchkey/core/client';
import type { Command } from 'commander';
import { createContext, type GlobalOptions, seg } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';

interface Device {
  id: string;
  name: string;
  user?: string;
  status?: string;
  revoked_at?: string | null;
  created_at?: string;
}

/** Registers `device enroll`, `device list` and `device revoke`. */
export function registerDevice(program: Command): void {
  const device = program
    .command('device')
    .description('Enroll, list and revoke the devices that sign pushes');

  device
    .command('enroll')
    .description('Generate an Ed25519 key pair here and enroll its public key')
    .requiredOption('--name <name>', 'a name for this device, e.g. the machine')
    .option('--key-file <file>', 'where to write the private key (default: under the config directory)')
    .action(enrollDevice);

  device.command('list').description('List the devices of the organization you may see').action(listDevices);

  device
    .command('revoke')
    .description('Revoke a device: its signatures stop being accepted at once')
    .argument('<id>', 'the device id (see `device list`)')
    .action(revokeDevice);
}

async function enrollDevice(options: { name: string; keyFile?: string }, command: Command): Promise<void> {
  const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
  const { url, client, org } = ctx.connect();
  const keyFile = resolve(
    options.keyFile ??
      join(ctx.config.keysDir(), `${org}-${options.name.replace(/[^A-Za-z0-9_.-]/g, '_')}.pem`),
  );
  if (existsSync(keyFile)) {
    throw new CliError(`${keyFile} exists: refusing to overwrite a key (give another --key-file or --name).`);
  }
  const pair = generateDeviceKeyPair();
  writeFileSync(keyFile, pair.privateKey.export({ format: 'pem', type: 'pkcs8' }), {
    mode: 0o600,
    flag: 'wx',
  });
  let enrolled: Device;
  try {
    enrolled = await client.json<Device>('POST', `/organizations/${seg(org)}/devices`, {
      name: options.name,
      public_key: pair.publicKey,
    });
  } catch (error) {
    rmSync(keyFile, { force: true });
    throw error;
  }
  ctx.config.updateState(url.href, org, (state) => {
    state.device = { id: enrolled.id, keyFile, name: options.name };
  });
  ctx.out.result({ ...enrolled, key_file: keyFile }, () => {
    ctx.out.line(`Enrolled device ${enrolled.id} (${options.name}).`);
    ctx.out.line(`Private key: ${keyFile} (mode 0600; it never leaves this machine).`);
  });
}

async function listDevices(_options: unknown, command: Command): Promise<void> {
  const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
  const { url, client, org } = ctx.connect();
  const { devices } = await client.json<{ devices: Device[] }>('GET', `/organizations/${seg(org)}/devices`);
  const mine = ctx.config.state(url.href, org).device?.id;
  ctx.out.result({ devices }, () =>
    ctx.out.table(
      ['id', 'name', 'user', 'status', 'created', ''],
      devices.map((d) => [
        d.id,
        d.name,
        d.user,
        d.status ?? (d.revoked_at ? 'revoked' : 'active'),
        d.created_at,
        d.id === mine ? '(this machine)' : '',
      ]),
    ),
  );
}

async function revokeDevice(id: string, _options: unknown, command: Command): Promise<void> {
  const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
  const { client, org } = ctx.connect();
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw new CliError(`"${id}" is not a device id.`, EXIT.usage);
  const revoked = await client.json<Device>('POST', `/organizations/${seg(org)}/devices/${seg(id)}/revoke`);
  ctx.out.result(revoked, () => ctx.out.line(`Revoked device ${revoked.id} (${revoked.name}).`));
}
