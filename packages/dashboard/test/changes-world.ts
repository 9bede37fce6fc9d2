/**
 * What the Change requests page's browser tests stand on: the Express example on a fresh store,
 * project `web` with environment `prod` under an approval policy (one approval by an owner or
 * admin, the owner may bypass it), admin `carol` and developer `dev` (granted web/prod) with their
 * tokens and enrolled devices, and signed pushes and change requests made as the CLI makes them.
 */
import type { KeyObject } from 'node:crypto';
import { generateDeviceKeyPair, signChangeRequest, signPush } from '@latchkey/core/client';
import { startServer } from './harness.js';

export const OWNER_TOKEN = 'lk_dashboard_changes_owner_token_0000000000';
const ORG = '/organizations/acme';
export const ENV = `${ORG}/projects/web/environments/prod`;
const ADDRESS = { organization: 'acme', project: 'web', environment: 'prod' };

type Server = Awaited<ReturnType<typeof startServer>>;
type Change = { key: string; value?: string; delete?: true; if_version: number };

/** A member with a token and an enrolled device. */
export interface Member {
  token: string;
  device: string;
  key: KeyObject;
}

/** Enrolls a device for the member whose token is `token`. */
async function enroll(server: Server, token: string, name: string): Promise<Member> {
  const pair = generateDeviceKeyPair();
  const { status, json } = await server.api(
    'POST',
    `${ORG}/devices`,
    { name, public_key: pair.publicKey },
    token,
  );
  if (status !== 201) throw new Error(`enroll ${name}: ${status} ${JSON.stringify(json)}`);
  return { token, device: json['id'] as string, key: pair.privateKey };
}

/** The server (`env` added to its environment), its members, and the writes the tests make. */
export async function startChangesWorld(certFile: string, env: Record<string, string> = {}) {
  const server = await startServer(OWNER_TOKEN, certFile, env);
  const must = async (method: string, path: string, body?: unknown, as?: string) => {
    const answer = await server.api(method, path, body, as);
    if (answer.status >= 300)
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
    return answer.json;
  };
  await must('POST', `${ORG}/projects`, { slug: 'web' });
  await must('POST', `${ORG}/projects/web/environments`, { slug: 'prod' });
  await must('POST', `${ORG}/members`, { user: 'carol', role: 'admin' });
  await must('POST', `${ORG}/members`, {
    user: 'dev',
    role: 'developer',
    grants: [{ project: 'web', environments: ['prod'] }],
  });
  const token = async (user: string) =>
    (await must('POST', `${ORG}/tokens`, { user, name: 'browser' }))['token'] as string;
  const owner = await enroll(server, OWNER_TOKEN, 'owner-laptop');
  const carol = await enroll(server, await token('carol'), 'carol-laptop');
  const dev = await enroll(server, await token('dev'), 'dev-laptop');

  /** A signed push as `member`; `bypass_reason` to push past the policy. */
  const push = (member: Member, changes: Change[], bypass?: string) =>
    must(
      'POST',
      `${ENV}/push`,
      signPush(
        { device_id: member.device, changes, ...(bypass ? { bypass_reason: bypass } : {}) },
        ADDRESS,
        member.key,
      ),
      member.token,
    );
  /** A change request `title` proposed by `member`; answers its id. */
  const propose = async (member: Member, title: string, changes: Change[]) => {
    const body = signChangeRequest(
      { device_id: member.device, changes, title, description: '' },
      ADDRESS,
      member.key,
    );
    const created = await must('POST', `${ENV}/change-requests`, body, member.token);
    return (created['change_request'] as { id: string }).id;
  };
  const setPolicy = (policy: Record<string, unknown> | null) =>
    must('PATCH', ENV, { approval_policy: policy });
  return { server, owner, carol, dev, push, propose, setPolicy, must };
}
