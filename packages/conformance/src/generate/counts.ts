/** A generated target's counts (the report's `generated.targets`), as the run starts them. */
import type { TargetCounts } from '../model';

/** A target's counts before any case: every verdict at zero. */
export function zeroCounts(
  id: string,
  target: string,
  kind: TargetCounts['kind'],
  transport: TargetCounts['transport'],
): TargetCounts {
  return { id, target, kind, transport, valid: 0, invalid: 0, pass: 0, fail: 0, inconclusive: 0, note: 0, notRun: 0 };
}
