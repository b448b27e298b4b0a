/**
 * Budgets far above anything a generated run spends. Under the reference ones (25 points per 5 s, one
 * order a second) a run paces itself for most of its wall time; the tests that start a sandbox with these
 * are about what is caught, not about pacing, which generate.test.ts proves on a sandbox of tight budgets.
 */
const generous = { points: 100_000 };
// The instrument buckets too: under one order a second per instrument a run's order sequences wait out the
// refill (and a server that spent the nonce of an order its bucket refused would refuse the runner's retry
// of that very frame; the sandbox takes the bucket first, so spends none).
const bucket = { capacity: 100_000, refillPerSecond: 100_000 };

export const generousLimits = {
  public: generous,
  non_matching: generous,
  matching: generous,
  cancel_all: generous,
  cancel_by_label: generous,
  bucket_perp_spot: bucket,
  bucket_option: bucket,
};
