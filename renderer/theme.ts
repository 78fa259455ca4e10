/**
 * Light and dark: `system` follows the OS (prefers-color-scheme, in CSS); `light` and `dark`
 * override it. The choice is remembered locally too, so the first paint already has it.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'loupe.theme';

export function applyTheme(theme: ThemeChoice): void {
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // Storage can be unavailable (private windows); the theme still applies for this page.
  }
}

export function rememberedTheme(): ThemeChoice {
  try {
    const t = localStorage.getItem(KEY);
    if (t === 'light' || t === 'dark' || t === 'system') return t;
  } catch {
    // fall through
  }
  return 'system';
}
