/**
 * A sign-in's one outcome: the first of the code, the POST, the timeout, Cancel, a closed window
 * or an IdP error page settles it; whatever comes after is ignored.
 */
export interface SettleOnce<T, E> {
  readonly promise: Promise<T>;
  /** True once settled. */
  readonly done: boolean;
  resolve(value: T): void;
  reject(error: E): void;
}

export function settleOnce<T, E = Error>(): SettleOnce<T, E> {
  let resolveFn!: (v: T) => void;
  let rejectFn!: (e: E) => void;
  const promise = new Promise<T>((res, rej) => {
    resolveFn = res;
    rejectFn = rej;
  });
  let done = false;
  return {
    promise,
    get done() {
      return done;
    },
    resolve(value) {
      if (done) return;
      done = true;
      resolveFn(value);
    },
    reject(error) {
      if (done) return;
      done = true;
      rejectFn(error);
    },
  };
}
