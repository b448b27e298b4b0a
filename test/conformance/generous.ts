/**
 * Budgets far above anything a generated run spends. Under the reference ones (25 points per 5 s, one
 * order a second) a run paces itself for most of its wall time; the tests that start a sandbox with these
 * are about what is caught, not about pacing, which generate.test.ts proves on a sandbox of tight budgets.
 */
const generous = { points: 100_000 };
// The instrument buckets too: a signed order the bucket refuses has spent its nonce (the sandbox verifies
// the signature first), so the runner's retry of that very frame would be refused as a nonce used twice.
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
