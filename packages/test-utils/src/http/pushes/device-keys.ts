/** Items: weak Ed25519 device keys and private keys are refused at enrolment, weak stored keys at push. */
import { generateKeyPairSync } from 'node:crypto';
import { signPush } from '@latchkey/core';
import {
  MIXED_ORDER,
  SMALL_ORDER_CANONICAL,
  SMALL_ORDER_NON_CANONICAL,
  toBase64Url,
} from '@latchkey/test-vectors/ed25519-weak-keys';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADDRESS, ADMIN, type ConformanceContext, ENV_PATH } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

const DEVICES = '/api/v2/organizations/acme/devices';
/** The identity point, the key of the forged push. */
const IDENTITY = 'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * The device with a weak key the push test plants in acme, as if enrolled before weak keys were
 * refused: it stays, so a restore of acme's backup refuses it (by design) from then on.
 */
export const WEAK_DEVICE_ID = 'dev_0000identitykey0000';

/** Registers the device key tests. */
export function describeDeviceKeyTests(ctx: ConformanceContext): void {
  describe('device keys', () => {
    it('refuses the identity point and every small-order or mixed-order key at enrolment (400)', async () => {
      expectError(
        await ctx.send('POST', DEVICES, { name: 'x', public_key: IDENTITY }),
        400,
        'invalid_request',
      );
      const weak = [...SMALL_ORDER_CANONICAL, ...SMALL_ORDER_NON_CANONICAL, ...MIXED_ORDER];
      for (const hex of weak) {
        const response = await ctx.send('POST', DEVICES, { name: 'x', public_key: toBase64Url(hex) });
        expect({ hex, status: response.status }).toEqual({ hex, status: 400 });
      }
    });

    it('refuses a push from a weak key enrolled before the fix with 403 device_key_invalid', async () => {
      const org = (await ctx.core.store.organizations.getBySlug('acme'))!;
      const id = WEAK_DEVICE_ID;
      await ctx.core.store.devices.create({
        id,
        organization_id: org.id,
        user: 'admin',
        name: 'enrolled before weak keys were refused',
        public_key: IDENTITY,
        status: 'active',
        created_at: new Date().toISOString(),
        revoked_at: null,
      });
      const { client_sig: _real, ...unsigned } = signPush(
        { device_id: id, changes: [{ key: 'FORGED', value: 'x' }] },
        ADDRESS,
        generateKeyPairSync('ed25519').privateKey,
      );
      const forged = {
        ...unsigned,
        client_sig: Buffer.concat([Buffer.from([1]), Buffer.alloc(63)]).toString('base64url'),
      };
      expectError(await ctx.send('POST', `${ENV_PATH}/push`, forged), 403, 'device_key_invalid');
      const secrets = await ctx.send('GET', `${ENV_PATH}/secrets`);
      expect(secrets.text).not.toContain('FORGED');
      const rejected = await ctx.events('push_rejected');
      expect(rejected[0]).toMatchObject({ device_id: id, data: { reason: 'device_key_invalid' } });
    });

    it('refuses a private key sent as public_key with 400, saying so, and never echoes it', async () => {
      const { privateKey } = generateKeyPairSync('ed25519');
      const pkcs8 = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
      const secretPart = pkcs8.split('\n')[1]!;
      for (const publicKey of [
        pkcs8,
        privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
      ]) {
        const response = await ctx.send('POST', DEVICES, { name: 'x', public_key: publicKey }, ADMIN);
        const body = expectError(response, 400, 'invalid_request');
        expect((body['error'] as { message: string }).message).toMatch(/private key/);
        expect(response.text).not.toContain(secretPart.slice(0, 20));
        expect(response.text).not.toContain(publicKey.slice(-30, -10));
      }
      expect(JSON.stringify(await ctx.events())).not.toContain(secretPart.slice(0, 20));
    });
  });
}
