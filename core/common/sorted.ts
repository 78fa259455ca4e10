/** Binary searches over ascending arrays of numbers. */

/** Index of the first element at or above `x` (the length when there is none). */
export function lowerBound(arr: readonly number[], x: number): number {
  return firstIndex(arr, (v) => v >= x);
}

/** Index of the first element above `x` (the length when there is none). */
export function upperBound(arr: readonly number[], x: number): number {
  return firstIndex(arr, (v) => v > x);
}

/** The first index whose element passes `test`, where every element after a passing one passes too. */
function firstIndex(arr: readonly number[], test: (v: number) => boolean): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (test(arr[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
