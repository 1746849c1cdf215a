// Many things started at once, one failure reported the same way whichever finished first.

/**
 * Waits for all of `work`, then reports the first failure in the order given, not the first to
 * happen: build and dev mode report one problem the same way whatever finished first.
 */
export async function inOrder<T extends readonly unknown[]>(work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
