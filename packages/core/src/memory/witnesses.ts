import type { Cosignature, Witness, WitnessRepository } from '../store/ports/witnesses.js';
import { journaledDelete, journaledDeleteWhere, journaledSet } from './journaled.js';
import { byCodeUnits } from './order.js';
import { copy, type Journal, type MemoryState } from './state.js';

const witnessKey = (organizationId: string, name: string) => `${organizationId}/${name}`;
const cosignatureKey = (c: Pick<Cosignature, 'organization_id' | 'tree_size' | 'root_hash' | 'witness'>) =>
  `${c.organization_id}/${c.tree_size}/${c.root_hash}/${c.witness}`;

/** Witnesses and their cosignatures in memory: each call one synchronous step. */
export function memoryWitnesses(state: MemoryState, journal: Journal): WitnessRepository {
  const of = (organizationId: string): Witness[] =>
    [...state.witnesses.values()].filter((w) => w.organization_id === organizationId);
  return {
    async add(witness, max) {
      const existing = of(witness.organization_id);
      if (existing.some((w) => w.name === witness.name || w.public_key === witness.public_key))
        return 'duplicate';
      if (existing.length >= max) return 'limit';
      journaledSet(
        state.witnesses,
        witnessKey(witness.organization_id, witness.name),
        copy(witness),
        journal,
      );
      return 'added';
    },
    async list(organizationId) {
      return of(organizationId)
        .sort((a, b) => byCodeUnits(a.name, b.name))
        .map(copy);
    },
    async remove(organizationId, name) {
      const witness = state.witnesses.get(witnessKey(organizationId, name));
      if (!witness) return null;
      journaledDelete(state.witnesses, witnessKey(organizationId, name), journal);
      journaledDeleteWhere(
        state.cosignatures,
        (c) => c.organization_id === organizationId && c.witness === name,
        journal,
      );
      return copy(witness);
    },
    async putCosignature(cosignature, keepHeads) {
      if (!state.witnesses.has(witnessKey(cosignature.organization_id, cosignature.witness))) return false;
      const key = cosignatureKey(cosignature);
      const kept = state.cosignatures.get(key);
      if (!kept || kept.timestamp < cosignature.timestamp)
        journaledSet(state.cosignatures, key, copy(cosignature), journal);
      const sizes = [
        ...new Set(
          [...state.cosignatures.values()]
            .filter((c) => c.organization_id === cosignature.organization_id)
            .map((c) => c.tree_size),
        ),
      ].sort((a, b) => b - a);
      const smallestKept = sizes[keepHeads - 1] ?? 0;
      journaledDeleteWhere(
        state.cosignatures,
        (c) => c.organization_id === cosignature.organization_id && c.tree_size < smallestKept,
        journal,
      );
      return true;
    },
    async cosignatures(organizationId, treeSize, rootHash) {
      return [...state.cosignatures.values()]
        .filter(
          (c) => c.organization_id === organizationId && c.tree_size === treeSize && c.root_hash === rootHash,
        )
        .sort((a, b) => byCodeUnits(a.witness, b.witness))
        .map(copy);
    },
  };
}
