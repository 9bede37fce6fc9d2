import { describe, expect, it } from 'vitest';
import { ExportTally } from './tally.js';

const line = (seq: number) => JSON.stringify({ seq, note: `line\n${seq}`.replace('\n', '\\n') });

describe('ExportTally', () => {
  it('counts lines and finds the first and last seq across text and byte chunks', () => {
    const tally = new ExportTally();
    tally.addLines(`${line(3)}\n${line(4)}\n`);
    tally.addLines(new TextEncoder().encode(`${line(5)}\n`));
    tally.addLines('');
    tally.addLines(new TextEncoder().encode(`${line(6)}\n${line(9)}\n`));
    expect([tally.count, tally.firstSeq, tally.lastSeq]).toEqual([5, 3, 9]);
  });

  it('takes pages of events', () => {
    const tally = new ExportTally();
    tally.addPage([{ seq: 10 }, { seq: 12 }]);
    tally.addPage([]);
    tally.addPage([{ seq: 15 }]);
    expect([tally.count, tally.firstSeq, tally.lastSeq]).toEqual([3, 10, 15]);
  });

  it('reports nothing for an empty export', () => {
    const tally = new ExportTally();
    expect([tally.count, tally.firstSeq, tally.lastSeq]).toEqual([0, null, null]);
  });

  it('does not keep the last chunk it saw', () => {
    const tally = new ExportTally();
    const chunk = new TextEncoder().encode(`${line(1)}\n${line(2)}\n`);
    tally.addLines(chunk);
    chunk.fill(0x20);
    expect(tally.lastSeq).toBe(2);
  });
});
