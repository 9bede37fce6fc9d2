import { PerformanceObserver } from 'node:perf_hooks';
import { generateDeviceKeyPair } from '@latchkey/core';
import { createBarePush } from './bare.js';
import { ADAPTER_PATH, createBenchCore, REQUEST_HEADERS } from './fixture.js';
import { signBodies } from './sign.js';

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });
const keys = generateDeviceKeyPair();
const core = await createBenchCore(keys.publicKey);
const push = createBarePush(keys.publicKey);
for (let chunk = 0; chunk < 6; chunk++) {
  const bodies = signBodies(8000, keys.privateKey, chunk);
  gcMs = 0;
  let t = performance.now();
  for (const body of bodies) {
    const r = await core.handle({ method: 'POST', url: ADAPTER_PATH, headers: REQUEST_HEADERS, body });
    if (r.status !== 200) throw new Error(String(r.body));
  }
  const core_us = ((performance.now() - t) * 1000) / bodies.length;
  const coreGc = (gcMs * 1000) / bodies.length;
  gcMs = 0;
  t = performance.now();
  for (const body of bodies) if (push(JSON.parse(body.toString())).status !== 200) throw new Error('bare');
  const bare_us = ((performance.now() - t) * 1000) / bodies.length;
  console.log(
    `chunk ${chunk}: core ${core_us.toFixed(0)} µs (gc ${coreGc.toFixed(1)}), bare ${bare_us.toFixed(0)} µs (gc ${((gcMs * 1000) / bodies.length).toFixed(1)}), heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
  );
}
