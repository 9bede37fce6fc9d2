/**
 * Device enrollment, listing and revocation, each one call into `organizations/`. A device is owned
 * by the member who enrolled it.
 */
import { toDeviceView, toListedDeviceView } from '../http/views.js';
import type { Device } from '../model/model.js';
import { listDevices } from '../organizations/device-reads.js';
import { enrollDevice } from '../organizations/enroll-device.js';
import { revokeDevice } from '../organizations/revoke-device.js';
import { DeviceResponse, EnrollDeviceBody } from '../schemas/api.js';
import { answers } from './docs.js';
import { listing } from './list-route.js';
import { ORGANIZATION } from './paths.js';
import { routeGroup } from './route-group.js';
import { pathParam, serviceCall, theBody } from './service-call.js';

const DEVICES = `${ORGANIZATION}/devices`;

/** The routes of devices: tagged Devices, for holders of devices:manage (each checks more where it must). */
const deviceRoute = routeGroup({ tag: 'Devices', permission: 'devices:manage' });

export const deviceRoutes = [
  deviceRoute('POST', DEVICES, {
    operationId: 'enrollDevice',
    summary: 'Enroll a device (Ed25519 public key) owned by the caller.',
    body: EnrollDeviceBody,
    responses: answers(201, 'Enrolled', DeviceResponse),
    handler: serviceCall(enrollDevice, theBody, toDeviceView, 201),
  }),

  deviceRoute('GET', DEVICES, {
    operationId: 'listDevices',
    summary: "List devices: your own, or everyone's with devices:manage_all.",
    ...listing(
      'devices',
      DeviceResponse,
      (d: Device, ctx) => toListedDeviceView(d, ctx.deps.now()),
      (ctx) => listDevices(ctx.deps.store, ctx),
    ),
  }),

  deviceRoute('POST', `${DEVICES}/{device}/revoke`, {
    operationId: 'revokeDevice',
    summary: 'Revoke a device; its pushes are refused with device_revoked from then on.',
    responses: answers(200, 'Revoked', DeviceResponse),
    handler: serviceCall(revokeDevice, pathParam('device'), toDeviceView),
  }),
];
