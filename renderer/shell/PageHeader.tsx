import { useEffect, useRef } from 'react';
import { useShell } from '../store/shell.js';

/**
 * The page title. After a navigation, focus moves to it so keyboard and screen-reader users
 * land at the start of the new page (not on the first page load).
 */
let lastPage: string | null = null;

export function PageHeader({ title, subtitle }: { title: string; subtitle?: string }) {
  const page = useShell((s) => s.page);
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (lastPage !== null && lastPage !== page) ref.current?.focus({ preventScroll: true });
    lastPage = page;
  }, [page]);
  return (
    <header className="page-header">
      <h1 ref={ref} tabIndex={-1} className="page-title">
        {title}
      </h1>
      {subtitle && <p className="page-subtitle">{subtitle}</p>}
    </header>
  );
}
