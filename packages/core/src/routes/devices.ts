/** Device enrollment, listing and revocation. A device is owned by the member who enrolled it. */
import { authorize } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { toDeviceView, toListedDeviceView } from '../http/views.js';
import type { Device } from '../model/model.js';
import { DeviceResponse, EnrollDeviceBody } from '../schemas/api.js';
import { enrollmentKey } from '../secrets/enrollment-key.js';
import { answers } from './docs.js';
import { refuseAbove } from './guards.js';
import { listing } from './list-route.js';
import { ORGANIZATION } from './paths.js';
import { recordChange } from './record-change.js';
import { routeGroup } from './route-group.js';

const DEVICES = `${ORGANIZATION}/devices`;

/** The routes of devices: tagged Devices, for holders of devices:manage (each checks more where it must). */
const deviceRoute = routeGroup({ tag: 'Devices', permission: 'devices:manage' });

export const deviceRoutes = [
  deviceRoute('POST', DEVICES, {
    operationId: 'enrollDevice',
    summary: 'Enroll a device (Ed25519 public key) owned by the caller.',
    body: EnrollDeviceBody,
    responses: answers(201, 'Enrolled', DeviceResponse),
    async handler(ctx) {
      const publicKey = enrollmentKey(ctx.body.public_key);
      const device = {
        id: ctx.deps.ids('dev'),
        organization_id: ctx.organization.id,
        user: ctx.principal.user,
        name: ctx.body.name,
        public_key: publicKey,
        status: 'active' as const,
        created_at: ctx.at,
        revoked_at: null,
      };
      await recordChange(
        ctx,
        (tx) => tx.devices.create(device),
        () => ctx.event('device_enrolled', { name: device.name }, { device_id: device.id }),
      );
      return { status: 201, body: toDeviceView(device) };
    },
  }),

  deviceRoute('GET', DEVICES, {
    operationId: 'listDevices',
    summary: "List devices: your own, or everyone's with devices:manage_all.",
    ...listing(
      'devices',
      DeviceResponse,
      (d: Device, ctx) => toListedDeviceView(d, ctx.deps.now()),
      (ctx) => {
        const all = authorize(ctx.principal, 'devices:manage_all').ok;
        return ctx.deps.store.devices.list(ctx.organization.id, all ? undefined : ctx.principal.user);
      },
    ),
  }),

  deviceRoute('POST', `${DEVICES}/{device}/revoke`, {
    operationId: 'revokeDevice',
    summary: 'Revoke a device; its pushes are refused with device_revoked from then on.',
    responses: answers(200, 'Revoked', DeviceResponse),
    async handler(ctx) {
      const { store } = ctx.deps;
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
      const device = await recordChange(
        ctx,
        async (tx) => (await tx.devices.revoke(ctx.organization.id, existing.id, ctx.at))!,
        (revoked) => ctx.event('device_revoked', {}, { device_id: revoked.id }),
      );
      return { status: 200, body: toDeviceView(device) };
    },
  }),
];
