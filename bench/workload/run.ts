/**
 * Workload identity benchmark: the token exchange with the issuer's keys cached, and pushes with a
 * workload token beside pushes with a member's token, interleaved in one run, through `core.handle`
 * on the memory store (the loopback issuer is only reached for the first exchange's keys).
 *
 *   npx tsx --conditions=@latchkey/source bench/workload/run.ts [--count 300]
 */
import { parseArgs } from 'node:util';
import { createCore, generateDeviceKeyPair, signPush } from '@latchkey/core';
import { startTestIssuer } from '@latchkey/test-utils/oidc-issuer';

const { values } = parseArgs({ options: { count: { type: 'string', default: '300' } } });
const count = Number(values.count);
const issuer = await startTestIssuer('localhost');
const core = createCore({
  trustedIssuers: [{ issuer: issuer.issuer, ca: issuer.ca }],
  logger: { error: () => undefined },
});
const ADMIN = 'lk_bench_workload_admin_token_00000000000000';
await core.bootstrap({ organization: 'acme', user: 'admin', token: ADMIN });
const call = async (method: string, url: string, body: unknown, token?: string) => {
  const response = await core.handle({
    method,
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: JSON.parse(response.body as string) };
};
await call('POST', '/api/v2/organizations/acme/projects', { slug: 'web' }, ADMIN);
await call('POST', '/api/v2/organizations/acme/projects/web/environments', { slug: 'prod' }, ADMIN);
await call(
  'POST',
  '/api/v2/organizations/acme/workload-identities',
  {
    name: 'ci',
    issuer: issuer.issuer,
    audience: 'bench',
    subject: 'repo:acme/web',
    claims: { repository_id: '1' },
    grants: [{ project: 'web', environments: ['prod'] }],
    actions: ['secrets:read', 'secrets:push'],
  },
  ADMIN,
);
const claims = () => {
  const now = Math.floor(Date.now() / 1000);
  return { aud: 'bench', sub: 'repo:acme/web', repository_id: '1', iat: now, exp: now + 300 };
};
const keys = generateDeviceKeyPair();
const exchange = async (idToken: string) =>
  call('POST', '/api/v2/workload-tokens', {
    organization: 'acme',
    identity: 'ci',
    id_token: idToken,
    public_key: keys.publicKey,
  });
const first = await exchange(await issuer.sign(claims()));
if (first.status !== 201) throw new Error(`exchange: ${JSON.stringify(first.json)}`);
const fetchesAfterFirst = { ...issuer.fetches };
const tokens = await Promise.all(Array.from({ length: count }, () => issuer.sign(claims())));
const exchangeMs: number[] = [];
for (const idToken of tokens) {
  const began = performance.now();
  const answer = await exchange(idToken);
  exchangeMs.push(performance.now() - began);
  if (answer.status !== 201) throw new Error(`exchange: ${JSON.stringify(answer.json)}`);
}
if (issuer.fetches.jwks !== fetchesAfterFirst.jwks) throw new Error('the keys were fetched again');
const workload = first.json as { token: string; device_id: string };
const member = await call(
  'POST',
  '/api/v2/organizations/acme/devices',
  { name: 'bench', public_key: keys.publicKey },
  ADMIN,
);
const memberDevice = (member.json as { id: string }).id;
const address = { organization: 'acme', project: 'web', environment: 'prod' };
const pushPath = '/api/v2/organizations/acme/projects/web/environments/prod/push';
const versions = { workload: 0, member: 0 };
const pushMs = { workload: [] as number[], member: [] as number[] };
for (let i = 0; i < count * 2; i++) {
  const who = i % 2 === 0 ? 'workload' : 'member';
  const body = signPush(
    {
      device_id: who === 'workload' ? workload.device_id : memberDevice,
      changes: [{ key: `K_${who.toUpperCase()}`, value: `v${i}`, if_version: versions[who] }],
      conflict_mode: 'strict',
    },
    address,
    keys.privateKey,
  );
  const began = performance.now();
  const answer = await call('POST', pushPath, body, who === 'workload' ? workload.token : ADMIN);
  pushMs[who].push(performance.now() - began);
  if (answer.status !== 200) throw new Error(`push: ${JSON.stringify(answer.json)}`);
  versions[who]++;
}
await issuer.close();
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const row = (name: string, xs: number[]) =>
  `| ${name.padEnd(34)} | ${String(xs.length).padStart(5)} | ${pct(xs, 50).toFixed(2).padStart(7)} | ${pct(xs, 95).toFixed(2).padStart(7)} |`;
console.log('| what (core.handle, memory store)   | count | p50 ms  | p95 ms  |');
console.log('| ---------------------------------- | ----- | ------- | ------- |');
console.log(row('exchange, keys cached', exchangeMs));
console.log(row('strict push, workload token', pushMs.workload));
console.log(row('strict push, member token', pushMs.member));
