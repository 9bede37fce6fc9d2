/**
 * The role x route table, part 3: the transparency log's witnesses (owner only: admins are refused
 * too) and the cosignature endpoint (whoever may read the checkpoint; the cosignature itself is
 * what must verify, so a readable but bogus one is a 422).
 */

import { witnessPublicKey } from '../harness/witness-public-key.js';
import { managers, ORG, type Row } from './role-table-rows.js';

const WITNESSES = `${ORG}/activity/witnesses`;
const ownerOnly = (status: number) => ({ ...managers(403), owner: status });

/** The rows of witnesses and cosignatures. */
export const WITNESS_ROWS: Row[] = [
  {
    operationId: 'addWitness',
    expect: ownerOnly(201),
    call: (c, w) =>
      c.send(
        'POST',
        WITNESSES,
        // A distinct key per caller, so only the role decides the answer.
        { name: `rt.example/${w.role}`, public_key: witnessPublicKey(w.role.length) },
        w.token,
      ),
  },
  {
    operationId: 'listWitnesses',
    expect: ownerOnly(200),
    call: (c, w) => c.send('GET', WITNESSES, undefined, w.token),
  },
  {
    operationId: 'removeWitness',
    expect: ownerOnly(404),
    call: (c, w) => c.send('DELETE', `${WITNESSES}/rt.example%2Fnobody`, undefined, w.token),
  },
  {
    operationId: 'addCheckpointCosignature',
    expect: managers(422),
    call: (c, w) =>
      c.send(
        'POST',
        `${ORG}/activity/checkpoint/cosignatures`,
        { cosignature: '\u2014 rt.example/x AAAAAAA=' },
        w.token,
      ),
  },
];
