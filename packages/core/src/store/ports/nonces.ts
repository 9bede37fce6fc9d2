/** Port: push nonces, each usable once. */

export interface NonceRepository {
  /**
   * Records `nonce` for `scope` unless it is already recorded: one atomic set-if-absent. Returns
   * false when the nonce was seen before (a replay). Entries may be forgotten after `expiresAt` (ms).
   */
  consume(scope: string, nonce: string, expiresAt: number, now: number): Promise<boolean>;
}
