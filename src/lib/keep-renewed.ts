// Keeps a lease alive while the work it covers runs: renews it every third of the lease, one renewal at a time, so
// the lease lapses only when its holder stops (a process that died) or renewals fail for a whole lease.
export function keepRenewed(
  renew: () => Promise<unknown>,
  leaseMs: number,
  onError: (error: unknown) => void,
): () => void {
  let renewing = false;
  const timer = setInterval(
    () => {
      if (renewing) return;
      renewing = true;
      renew()
        .catch(onError)
        .finally(() => (renewing = false));
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
