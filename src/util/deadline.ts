/**
 * The promise, or `timedOut()` once the deadline (a `performance.now()` time) has passed, whichever
 * comes first. The work goes on when the deadline wins: this only stops waiting for it.
 */
export function beforeDeadline<T>(work: Promise<T>, deadline: number | undefined, timedOut: () => unknown): Promise<T> {
  if (deadline === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timedOut()), Math.max(0, deadline - performance.now()));
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
