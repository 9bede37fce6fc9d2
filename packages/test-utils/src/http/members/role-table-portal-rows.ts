/**
 * The role x route table, part 4: portal sessions (owners and admins mint, list and end them; the
 * session a portal token reads is answered to portal tokens only, so every API token gets a 404).
 */
import { all, managers, ORG, type Row } from './role-table-rows.js';

/** The origin the suite's core lets portal sessions name (core option `portal.allowedOrigins`). */
export const PORTAL_ORIGIN = 'https://host.portal.test';

const SESSIONS = `${ORG}/portal-sessions`;

/** The rows of portal sessions. */
export const PORTAL_ROWS: Row[] = [
  {
    operationId: 'createPortalSession',
    expect: managers(201),
    call: (c, w) =>
      c.send('POST', SESSIONS, { capabilities: ['audit_webhooks:read'], origin: PORTAL_ORIGIN }, w.token),
  },
  {
    operationId: 'listPortalSessions',
    expect: managers(200),
    call: (c, w) => c.send('GET', SESSIONS, undefined, w.token),
  },
  {
    operationId: 'deletePortalSession',
    expect: managers(404),
    call: (c, w) => c.send('DELETE', `${SESSIONS}/ps_nobody0000000`, undefined, w.token),
  },
  {
    operationId: 'expireAllPortalSessions',
    expect: managers(200),
    call: (c, w) => c.send('POST', `${SESSIONS}/expire-all`, {}, w.token),
  },
  {
    operationId: 'getCurrentPortalSession',
    expect: all(404, 404),
    call: (c, w) => c.send('GET', '/api/v2/portal-session', undefined, w.token),
  },
];
