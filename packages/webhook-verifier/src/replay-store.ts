/**
 * Where the verifier remembers event ids it has accepted. Implementations must make `claim` an atomic
 * set-if-absent: when several requests (in one process or across receiver instances) claim the same id
 * concurrently, exactly one of them gets `true`.
 */
export interface ReplayStore {
  /**
   * Records `id` until `expiresAt` unless it is already recorded and not yet expired.
   * Returns `true` when this call recorded it (first delivery), `false` for a replay. On a replay the
   * expiry must become the later of the two: a re-signed retry of the same event has a later
   * timestamp, and a captured copy of it must stay rejected until that timestamp's window closes.
   * `now` is the verifier's clock, so stores need none of their own; both are milliseconds since epoch.
   */
  claim(id: string, expiresAt: number, now: number): boolean | Promise<boolean>;
  /** Forgets `id`, so a later delivery with it is accepted again (used when the handler failed). */
  release(id: string): void | Promise<void>;
}
