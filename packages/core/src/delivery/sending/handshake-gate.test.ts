import type { buildConnector } from 'undici';
import { describe, expect, it } from 'vitest';
import { gatedConnector } from './handshake-gate.js';

type Done = (error: Error | null, socket: unknown) => void;

/** A connector whose openings the test finishes by hand, in any order. */
function manualConnector() {
  const opening: { host: string; finish: Done }[] = [];
  const connector = ((options: { hostname: string }, callback: Done) => {
    opening.push({ host: options.hostname, finish: callback });
  }) as unknown as buildConnector.connector;
  return { connector, opening };
}

/** Opens a connection to `hostname` through `connect`, answering with what its callback got. */
function open(connect: buildConnector.connector, hostname: string) {
  const answered: { error: Error | null; socket: unknown }[] = [];
  (connect as unknown as (o: { hostname: string }, cb: Done) => void)({ hostname }, (error, socket) =>
    answered.push({ error, socket }),
  );
  return answered;
}

describe('gatedConnector', () => {
  it('lets one connection open at a time; the next starts when it is done, in order', () => {
    const { connector, opening } = manualConnector();
    const gated = gatedConnector(connector, 1);
    const a = open(gated, 'a');
    const b = open(gated, 'b');
    const c = open(gated, 'c');
    expect(opening.map((o) => o.host)).toEqual(['a']);
    opening[0]!.finish(null, 'socket-a');
    expect(a).toEqual([{ error: null, socket: 'socket-a' }]);
    expect(opening.map((o) => o.host)).toEqual(['a', 'b']);
    opening[1]!.finish(null, 'socket-b');
    expect(b).toEqual([{ error: null, socket: 'socket-b' }]);
    expect(opening.map((o) => o.host)).toEqual(['a', 'b', 'c']);
    opening[2]!.finish(null, 'socket-c');
    expect(c).toHaveLength(1);
  });

  it('passes a failed opening on, and lets the next one start', () => {
    const { connector, opening } = manualConnector();
    const gated = gatedConnector(connector, 1);
    const failed = open(gated, 'a');
    open(gated, 'b');
    const refused = new Error('handshake failed');
    opening[0]!.finish(refused, null);
    expect(failed).toEqual([{ error: refused, socket: null }]);
    expect(opening.map((o) => o.host)).toEqual(['a', 'b']);
  });

  it('keeps `limit` openings under way at once, never more', () => {
    const { connector, opening } = manualConnector();
    const gated = gatedConnector(connector, 2);
    for (const host of ['a', 'b', 'c', 'd']) open(gated, host);
    expect(opening).toHaveLength(2);
    opening[1]!.finish(null, 'socket-b');
    expect(opening.map((o) => o.host)).toEqual(['a', 'b', 'c']);
    opening[0]!.finish(null, 'socket-a');
    opening[2]!.finish(null, 'socket-c');
    expect(opening.map((o) => o.host)).toEqual(['a', 'b', 'c', 'd']);
    opening[3]!.finish(null, 'socket-d');
    // All done: the gate is open again for two at once.
    open(gated, 'e');
    open(gated, 'f');
    expect(opening).toHaveLength(6);
  });
});
