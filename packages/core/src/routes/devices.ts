/** Device enrollment, listing and revocation. A device is owned by the member who enrolled it. */
import { z } from 'zod';
import { type ParsedPublicKey, parseEd25519PublicKey } from '../crypto.js';
import { LatchkeyError } from '../errors.js';
import { authorize } from '../permissions.js';
import { defineRoute } from '../router.js';
import { DeviceResponse, EnrollDeviceBody } from '../schemas.js';
import { commonErrors } from './docs.js';
import { refuseAbove } from './guards.js';
import { toDeviceView } from './views.js';

const DEVICES = '/organizations/{organization}/devices';

export const deviceRoutes = [
  defineRoute({
    method: 'POST',
    path: DEVICES,
    operationId: 'enrollDevice',
    summary: 'Enroll a device (Ed25519 public key) owned by the caller.',
    tag: 'Devices',
    permission: 'devices:manage',
    body: EnrollDeviceBody,
    responses: { 201: { description: 'Enrolled', schema: DeviceResponse }, ...commonErrors },
    async handler(ctx) {
      const parsed = parseEd25519PublicKey(ctx.body.public_key);
      if (!parsed.ok) throw refusedKey(parsed.reason);
      const publicKey = parsed.key;
      const device = {
        id: ctx.services.ids('dev'),
        organization_id: ctx.organization.id,
        user: ctx.principal.user,
        name: ctx.body.name,
        public_key: publicKey,
        status: 'active' as const,
        created_at: ctx.at,
        revoked_at: null,
      };
      await ctx.services.store.transaction(async (tx) => {
        await tx.devices.create(device);
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('device_enrolled', { name: device.name }, { device_id: device.id }),
        );
      });
      return { status: 201, body: toDeviceView(device) };
    },
  }),

  defineRoute({
    method: 'GET',
    path: DEVICES,
    operationId: 'listDevices',
    summary: "List devices: your own, or everyone's with devices:manage_all.",
    tag: 'Devices',
    permission: 'devices:manage',
    responses: {
      200: { description: 'Devices', schema: z.strictObject({ devices: z.array(DeviceResponse) }) },
      ...commonErrors,
    },
    async handler(ctx) {
      const all = authorize(ctx.principal, 'devices:manage_all').ok;
      const devices = await ctx.services.store.devices.list(
        ctx.organization.id,
        all ? undefined : ctx.principal.user,
      );
      return { status: 200, body: { devices: devices.map(toDeviceView) } };
    },
  }),

  defineRoute({
    method: 'POST',
    path: `${DEVICES}/{device}/revoke`,
    operationId: 'revokeDevice',
    summary: 'Revoke a device; its pushes are refused with device_revoked from then on.',
    tag: 'Devices',
    permission: 'devices:manage',
    responses: { 200: { description: 'Revoked', schema: DeviceResponse }, ...commonErrors },
    async handler(ctx) {
      const { store } = ctx.services;
      const existing = await store.devices.get(ctx.organization.id, ctx.params['device']!);
      const mayRevoke =
        existing &&
        (existing.user === ctx.principal.user || authorize(ctx.principal, 'devices:manage_all').ok);
      // Someone else's device answers like a missing one unless you may manage every device.
      if (!existing || !mayRevoke) throw new LatchkeyError('not_found', 'The device was not found.');
      if (existing.user !== ctx.principal.user) {
        // devices:manage_all reaches members of your rank and below, never a more privileged one.
        const owner = await store.members.get(ctx.organization.id, existing.user);
        if (owner) refuseAbove(ctx, owner.role, 'revoke the device of a member whose role is above yours');
      }
      const device = await store.transaction(async (tx) => {
        const revoked = (await tx.devices.revoke(ctx.organization.id, existing.id, ctx.at))!;
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('device_revoked', {}, { device_id: revoked.id }),
        );
        return revoked;
      });
      return { status: 200, body: toDeviceView(device) };
    },
  }),
];

const KEY_REFUSALS: Record<Extract<ParsedPublicKey, { ok: false }>['reason'], [string, string]> = {
  // Says what was sent without repeating any of it: the key must never reach a response or a log.
  private_key: [
    'public_key is a private key. Send the public key only (SPKI PEM "BEGIN PUBLIC KEY" or the raw 32 bytes in base64url), and treat this private key as exposed.',
    'a private key, not a public key',
  ],
  not_ed25519: [
    'public_key must be an Ed25519 public key.',
    'not an Ed25519 key (SPKI PEM or raw 32 bytes base64url)',
  ],
  weak_key: [
    'public_key is a weak Ed25519 key (small order, mixed order or a non-canonical encoding); generate a new key pair.',
    'a weak Ed25519 key',
  ],
};

function refusedKey(reason: keyof typeof KEY_REFUSALS): LatchkeyError {
  const [message, detail] = KEY_REFUSALS[reason];
  return new LatchkeyError('invalid_request', message, {
    details: [{ path: 'body.public_key', message: detail }],
  });
}
