/** The calendar facts the date functions, STR_TO_DATE and the store rules share. */

export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The number as `w` digits, zeros in front. */
export const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The days of month `m` (1 to 12) of year `y`. */
export const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
