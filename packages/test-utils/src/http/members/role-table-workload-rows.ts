/** The role x route table, part 4: workload identities (owners and admins manage them). */
import { managers, ORG, type Row } from './role-table-rows.js';

const IDENTITIES = `${ORG}/workload-identities`;

/** The rows of workload identities. */
export const WORKLOAD_ROWS: Row[] = [
  {
    operationId: 'createWorkloadIdentity',
    // Refused for its body by whoever may manage identities: only the role decides the status.
    expect: managers(400),
    call: (c, w) => c.send('POST', IDENTITIES, { name: `rt-${w.role}`, subject: '*' }, w.token),
  },
  {
    operationId: 'listWorkloadIdentities',
    expect: managers(200),
    call: (c, w) => c.send('GET', IDENTITIES, undefined, w.token),
  },
  {
    operationId: 'deleteWorkloadIdentity',
    expect: managers(404),
    call: (c, w) => c.send('DELETE', `${IDENTITIES}/nobody`, undefined, w.token),
  },
];
