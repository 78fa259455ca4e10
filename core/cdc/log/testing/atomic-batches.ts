/** How many `data` records atomic write number `batch` of the kill -9 test carries (1-300). */
export const sizeOf = (batch: number) => 1 + ((batch * 37) % 300);
