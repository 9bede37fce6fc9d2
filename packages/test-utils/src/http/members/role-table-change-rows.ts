/**
 * The role x route table, part 4: change requests on web/prod, which has no approval policy, so a
 * proposal that passes the role is a 400 and a request id that does not exist a 404: only the role
 * decides whether the route is reached. Proposing and reviewing are developer and up (the policy of
 * an environment narrows review), reading is whoever reads the history.
 */
import { signChangeRequest } from '@latchkey/core';
import { type Role, type Row, WEB } from './role-table-rows.js';

const REQUESTS = `${WEB}/environments/prod/change-requests`;
const NONE = `${REQUESTS}/chr_0000000000000000`;
const ADDRESS = { organization: 'acme', project: 'web', environment: 'prod' };

const members = (status: number): Record<Role, number> => ({
  owner: status,
  admin: status,
  developer: status,
  viewer: 403,
  outsider: 404,
});

/** The rows of change requests. */
export const CHANGE_ROWS: Row[] = [
  {
    operationId: 'createChangeRequest',
    expect: members(400),
    call: (c, w) =>
      c.send(
        'POST',
        REQUESTS,
        w.device
          ? signChangeRequest(
              {
                device_id: w.device.deviceId,
                changes: [{ key: 'RT', value: 'x', if_version: 0 }],
                title: 'rt',
              },
              ADDRESS,
              w.device.keys.privateKey,
            )
          : { title: 'rt' },
        w.token,
      ),
  },
  {
    operationId: 'listChangeRequests',
    expect: { ...members(200), viewer: 200 },
    call: (c, w) => c.send('GET', REQUESTS, undefined, w.token),
  },
  {
    operationId: 'getChangeRequest',
    expect: { ...members(404), viewer: 404 },
    call: (c, w) => c.send('GET', NONE, undefined, w.token),
  },
  {
    operationId: 'approveChangeRequest',
    expect: members(404),
    call: (c, w) => c.send('POST', `${NONE}/approve`, {}, w.token),
  },
  {
    operationId: 'rejectChangeRequest',
    expect: members(404),
    call: (c, w) => c.send('POST', `${NONE}/reject`, { reason: 'rt' }, w.token),
  },
  {
    operationId: 'cancelChangeRequest',
    expect: members(404),
    call: (c, w) => c.send('POST', `${NONE}/cancel`, undefined, w.token),
  },
  {
    operationId: 'applyChangeRequest',
    expect: members(404),
    call: (c, w) => c.send('POST', `${NONE}/apply`, undefined, w.token),
  },
];
