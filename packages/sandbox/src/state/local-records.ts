/**
 * The shared records of a sandbox alone: the domain's own copy is the only one, so there is nothing to
 * send and nothing to wait for.
 */
import type { SharedRecords } from './shared-records';

export class LocalRecords implements SharedRecords {
  put(): void {}
  on(): void {}
  during<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}
