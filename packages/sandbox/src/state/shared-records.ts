/** The port of the records every member of a fleet holds alike (one of the state ports: ports.ts). */

/**
 * Records every member must hold alike, by kind and key (session keys and whitelists registered through
 * the API, MMP configs and freezes, cancel-on-disconnect settings). The domain keeps its own copy and
 * checks it synchronously; a change made here is `put` (as JSON) and `apply` is told of the others'.
 */
export interface SharedRecords {
  /**
   * A record changed here (null: gone): started at once, never rejects; the call it was made in (during)
   * waits for it. In a fleet every member has applied it when that wait ends, so a check anywhere after
   * the answer sees it.
   */
  put(kind: string, key: string, value: unknown): void;
  /** Be told of a kind's records that another member put (and of those already kept, when the member starts). */
  on(kind: string, apply: (key: string, value: unknown) => void): void;
  /**
   * Run one call's work, then wait until every put the work made (and no other call's) has reached
   * every member; rejects naming what did not.
   */
  during<T>(work: () => Promise<T>): Promise<T>;
}
