import type { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createCertificateAgents } from './client-certificate-agents.js';

/** A stand-in pool that records whether it was closed. */
const fakeAgent = () => {
  const agent = {
    closed: false,
    async close() {
      agent.closed = true;
    },
  };
  return agent;
};

describe('connection pools per client certificate', () => {
  it('keeps one pool per certificate, closes the least recently used beyond 256, and all on close', async () => {
    const made: ReturnType<typeof fakeAgent>[] = [];
    const pools = createCertificateAgents(() => {
      const agent = fakeAgent();
      made.push(agent);
      return agent as unknown as Agent;
    });
    const credentials = (i: number) => ({ certificate: `cert ${i}`, privateKey: `key ${i}` });
    const first = pools.get(credentials(0));
    expect(pools.get(credentials(0))).toBe(first);
    for (let i = 1; i < 256; i++) pools.get(credentials(i));
    // Certificate 0 used again: certificate 1 is now the least recently used.
    pools.get(credentials(0));
    pools.get(credentials(256));
    expect(made).toHaveLength(257);
    expect(made.filter((a) => a.closed).map((a) => made.indexOf(a))).toEqual([1]);
    expect(pools.get(credentials(0))).toBe(first);
    await pools.close();
    expect(made.every((a) => a.closed)).toBe(true);
  });
});
