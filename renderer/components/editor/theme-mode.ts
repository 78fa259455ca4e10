import { useEffect, useState } from 'react';

/** 'dark' or 'light' as the page shows it now (data-theme, or the system's when 'system'). */
export function useThemeMode(): 'dark' | 'light' {
  const read = (): 'dark' | 'light' => {
    const t = document.documentElement.dataset.theme;
    if (t === 'dark' || t === 'light') return t;
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  };
  const [mode, setMode] = useState(read);
  useEffect(() => {
    const obs = new MutationObserver(() => setMode(read()));
    obs.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    const onMq = () => setMode(read());
    mq?.addEventListener('change', onMq);
    return () => {
      obs.disconnect();
      mq?.removeEventListener('change', onMq);
    };
  }, []);
  return mode;
}
