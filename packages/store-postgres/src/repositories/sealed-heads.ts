/**
 * What a store remembers of its own seals: the chain head (and tree) each organization's last seal
 * by this store left, so that its next seal of events it committed itself can write them after it
 * without reading anything first (see `sealPending` in `chain.ts`).
 */
import type { LockedChain } from './seal.js';

/** How many organizations' chain heads a store remembers after its own seals. */
const REMEMBERED_HEADS = 1_000;

/** The heads, the most recently sealed organizations' kept. */
export class SealedHeads {
  private readonly heads = new Map<string, LockedChain>();

  get(organizationId: string): LockedChain | undefined {
    return this.heads.get(organizationId);
  }

  set(organizationId: string, chain: LockedChain): void {
    this.heads.delete(organizationId);
    this.heads.set(organizationId, chain);
    if (this.heads.size > REMEMBERED_HEADS) this.heads.delete(this.heads.keys().next().value!);
  }

  forget(organizationId: string): void {
    this.heads.delete(organizationId);
  }
}
