import { describe, expect, it } from 'vitest';
import { type ChainLink, createChainWitness } from './chain-witness.js';

const GENESIS = '0'.repeat(64);
/** A chain of n links of organization acme (hashes are stand-ins: the witness checks links). */
function chain(n: number, organization = 'acme'): ChainLink[] {
  const links: ChainLink[] = [];
  for (let seq = 1; seq <= n; seq++) {
    links.push({
      organization,
      seq,
      prev_hash: links[seq - 2]?.hash ?? GENESIS,
      hash: `h${seq}`.padEnd(64, 'x'),
    });
  }
  return links;
}

describe('the chain witness', () => {
  it('accepts a chain in any order, repeats included, and folds it into one head', () => {
    const links = chain(50);
    const witness = createChainWitness();
    const shuffled = [...links].sort((a, b) => ((a.seq * 7919) % 50) - ((b.seq * 7919) % 50));
    for (const link of [...shuffled, links[10]!, links[49]!]) expect(witness.add(link)).toBeNull();
    expect(witness.head('acme')).toEqual({ seq: 50, hash: links[49]!.hash });
    expect(witness.missing('acme')).toEqual([]);
  });

  it('lists the gaps still open', () => {
    const links = chain(10);
    const witness = createChainWitness();
    for (const seq of [1, 2, 5, 6, 9]) witness.add(links[seq - 1]!);
    expect(witness.head('acme').seq).toBe(2);
    expect(witness.missing('acme')).toEqual([
      [3, 4],
      [7, 8],
    ]);
  });

  it('reports a forged or edited event at once, from either neighbour', () => {
    const links = chain(5);
    const witness = createChainWitness();
    witness.add(links[0]!);
    witness.add(links[2]!);
    const forged = { ...links[1]!, hash: 'f'.repeat(64) };
    expect(witness.add(forged)).toMatchObject({ kind: 'broken_link', seq: 2 });
    const unlinked = { ...links[1]!, prev_hash: 'e'.repeat(64) };
    expect(witness.add(unlinked)).toMatchObject({ kind: 'broken_link', seq: 2 });
    expect(witness.add(links[1]!)).toBeNull();
    expect(witness.add({ ...links[2]!, hash: 'd'.repeat(64) })).toMatchObject({ kind: 'conflict', seq: 3 });
    expect(witness.add({ ...links[3]!, prev_hash: 'c'.repeat(64) })).toMatchObject({
      kind: 'broken_link',
      seq: 4,
    });
  });

  it('keeps organizations apart, and can start watching mid-chain', () => {
    const witness = createChainWitness((organization) =>
      organization === 'late' ? { seq: 100, hash: 'a'.repeat(64) } : { seq: 0, hash: GENESIS },
    );
    expect(witness.add(chain(1, 'globex')[0]!)).toBeNull();
    expect(
      witness.add({ organization: 'late', seq: 101, prev_hash: 'a'.repeat(64), hash: 'b'.repeat(64) }),
    ).toBeNull();
    expect(
      witness.add({ organization: 'late', seq: 102, prev_hash: 'x'.repeat(64), hash: 'c'.repeat(64) }),
    ).toMatchObject({
      kind: 'broken_link',
    });
    expect(witness.head('late').seq).toBe(101);
    expect(witness.add({ organization: 'x', seq: 0, prev_hash: GENESIS, hash: GENESIS })).toMatchObject({
      kind: 'broken_link',
    });
  });
});
