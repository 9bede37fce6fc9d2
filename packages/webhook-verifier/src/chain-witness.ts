/**
 * A receiver's witness of each organization's activity chain. Every delivered event carries its
 * place in the chain (`seq`, `prev_hash`, `hash`); a receiver that keeps them holds an outside copy
 * of the log's links, so a log later cut short or rewritten at the source no longer matches what it
 * saw. This tracker checks continuity as events arrive (in any order: deliveries are not ordered):
 * an event whose links disagree with a neighbour it already holds, or a second event with the same
 * `seq` and another hash, is reported at once; `missing()` lists the gaps still open.
 *
 * `add` checks links, not the hashes themselves. `addDelivered` also checks the Merkle tree heads a
 * delivery carries (its optional `tree` field, `delivered-tree.ts`): recomputed from the event's own
 * bytes and linked from one event to the next, so a log rewritten and resealed at the source (a
 * split view: another history with a valid chain and signature) shows as a fork of the tree heads
 * the receiver already saw. Memory stays small: the contiguous prefix is kept as one head, and only
 * events beyond a gap are held.
 */
import { deliveredTreeLink, EMPTY_TREE_ROOT } from './delivered-tree.js';

/** The chain fields of a delivered event. */
export interface ChainLink {
  organization: string;
  seq: number;
  prev_hash: string;
  hash: string;
}

/** Why an event does not fit what was seen before. */
export interface ContinuityIssue {
  /**
   * `conflict`, `broken_link`: the chain links; `bad_tree`: the event's `tree` field does not prove
   * the event; `forked_tree`: its tree heads contradict tree heads seen before (a fork or rewrite).
   */
  kind: 'conflict' | 'broken_link' | 'bad_tree' | 'forked_tree';
  organization: string;
  seq: number;
  message: string;
}

interface Chain {
  /** The highest seq up to which every event was seen (0: none), and its hash. */
  head: { seq: number; hash: string };
  /** Events beyond a gap, by seq. */
  ahead: Map<number, { prev_hash: string; hash: string }>;
}

const GENESIS = '0'.repeat(64);

export interface ChainWitness {
  /** Adds a delivered event; returns an issue when it contradicts what was seen, else null. A repeat is fine. */
  add(event: ChainLink): ContinuityIssue | null;
  /**
   * Adds a delivered event (the whole parsed body) as `add` does and, when it carries a `tree`
   * field, checks it proves the event and that its tree heads extend those seen before.
   */
  addDelivered(event: ChainLink & Record<string, unknown>): Promise<ContinuityIssue | null>;
  /** The largest tree head up to which deliveries' tree heads linked without a gap: `{tree_size, root_hash}`. */
  treeHead(organization: string): { tree_size: number; root_hash: string };
  /** The seqs not yet seen below the highest one seen, as `[from, to]` ranges. */
  missing(organization: string): [number, number][];
  /** The highest seq up to which the chain was seen without a gap, and its hash. */
  head(organization: string): { seq: number; hash: string };
}

/**
 * Creates a witness; `start` sets where each organization's chain begins being watched (default:
 * seq 1), `treeStart` the tree head there (default: the empty tree; without it, tree heads before
 * a later start stay a gap).
 */
export function createChainWitness(
  start?: (organization: string) => { seq: number; hash: string },
  treeStart?: (organization: string) => { tree_size: number; root_hash: string },
): ChainWitness {
  const links = createLinks(start);
  // The tree heads link as the chain does: seq n joins the root of n - 1 events to the root of n.
  const trees = createLinks((organization) => {
    const head = treeStart?.(organization);
    return head ? { seq: head.tree_size, hash: head.root_hash } : { seq: 0, hash: EMPTY_TREE_ROOT };
  });
  return {
    add: links.add,
    missing: links.missing,
    head: links.head,
    async addDelivered(event) {
      const issue = links.add(event);
      if (event['tree'] === undefined) return issue;
      const link = await deliveredTreeLink(event);
      const at = { organization: event.organization, seq: event.seq };
      if (typeof link === 'string') return { kind: 'bad_tree', ...at, message: link };
      // A rewritten history breaks the chain links too; the tree's verdict names the heads, so it wins.
      const forked = trees.add({ ...at, prev_hash: link.previousRoot, hash: link.root });
      if (!forked) return issue;
      return {
        kind: 'forked_tree',
        ...at,
        message: `the tree heads of seq ${event.seq} (root ${link.root}, and ${link.previousRoot} at size ${event.seq - 1}) contradict those seen: ${forked.message}`,
      };
    },
    treeHead(organization) {
      const head = trees.head(organization);
      return { tree_size: head.seq, root_hash: head.hash };
    },
  };
}

/** The link tracker of one chain of `(seq, prev_hash, hash)` per organization. */
function createLinks(
  start?: (organization: string) => { seq: number; hash: string },
): Pick<ChainWitness, 'add' | 'missing' | 'head'> {
  const chains = new Map<string, Chain>();
  const chainOf = (organization: string) => {
    let chain = chains.get(organization);
    if (!chain) {
      chain = { head: start?.(organization) ?? { seq: 0, hash: GENESIS }, ahead: new Map() };
      chains.set(organization, chain);
    }
    return chain;
  };
  const issue = (kind: ContinuityIssue['kind'], event: ChainLink, message: string): ContinuityIssue => ({
    kind,
    organization: event.organization,
    seq: event.seq,
    message,
  });

  return {
    add(event) {
      if (!Number.isInteger(event.seq) || event.seq < 1)
        return issue('broken_link', event, 'seq is not a positive integer');
      const chain = chainOf(event.organization);
      const { head, ahead } = chain;
      if (event.seq <= head.seq) {
        // Already part of the contiguous prefix: only the head's own hash is still known.
        return event.seq === head.seq && event.hash !== head.hash
          ? issue('conflict', event, `a second event with seq ${event.seq} and another hash`)
          : null;
      }
      const known = ahead.get(event.seq);
      if (known) {
        return known.hash === event.hash
          ? null
          : issue('conflict', event, `a second event with seq ${event.seq} and another hash`);
      }
      const before = event.seq === head.seq + 1 ? head.hash : ahead.get(event.seq - 1)?.hash;
      if (before !== undefined && before !== event.prev_hash) {
        return issue('broken_link', event, `prev_hash does not match the hash of seq ${event.seq - 1}`);
      }
      const after = ahead.get(event.seq + 1);
      if (after && after.prev_hash !== event.hash) {
        return issue('broken_link', event, `seq ${event.seq + 1} does not link to this event`);
      }
      ahead.set(event.seq, { prev_hash: event.prev_hash, hash: event.hash });
      // Fold what is now contiguous into the head.
      for (let next = ahead.get(head.seq + 1); next; next = ahead.get(head.seq + 1)) {
        ahead.delete(head.seq + 1);
        head.seq += 1;
        head.hash = next.hash;
      }
      return null;
    },
    missing(organization) {
      const chain = chains.get(organization);
      if (!chain || chain.ahead.size === 0) return [];
      const seen = [...chain.ahead.keys()].sort((a, b) => a - b);
      const gaps: [number, number][] = [];
      let expected = chain.head.seq + 1;
      for (const seq of seen) {
        if (seq > expected) gaps.push([expected, seq - 1]);
        expected = seq + 1;
      }
      return gaps;
    },
    head(organization) {
      return { ...chainOf(organization).head };
    },
  };
}
