/** Small line icons drawn inline (no icon font, nothing fetched). */
import type { ReactNode } from 'react';

function Svg({ children, size = 16 }: { children: ReactNode; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export const FederationIcon = () => (
  <Svg>
    <circle cx="5" cy="8" r="2.6" />
    <path d="M7.6 8H14M11.5 8v2.2M13.6 8v1.6" />
  </Svg>
);
export const RelevanceIcon = () => (
  <Svg>
    <circle cx="6.8" cy="6.8" r="4.3" />
    <path d="M10 10l4 4M4.8 6.8h4M6.8 4.8v4" />
  </Svg>
);
export const CdcIcon = () => (
  <Svg>
    <ellipse cx="5" cy="4" rx="3" ry="1.4" />
    <path d="M2 4v6c0 .8 1.3 1.4 3 1.4s3-.6 3-1.4V4M2 7c0 .8 1.3 1.4 3 1.4S8 7.8 8 7" />
    <path d="M9.5 9.5h4.5M12 7.5l2 2-2 2" />
  </Svg>
);
export const ServicesIcon = () => (
  <Svg>
    <rect x="2" y="2.5" width="12" height="4" rx="1" />
    <rect x="2" y="9.5" width="12" height="4" rx="1" />
    <path d="M4.5 4.5h.01M4.5 11.5h.01" />
  </Svg>
);
export const SettingsIcon = () => (
  <Svg>
    <path d="M3 4h6M12 4h1M3 8h1M7 8h6M3 12h6M12 12h1" />
    <circle cx="10.5" cy="4" r="1.5" />
    <circle cx="5.5" cy="8" r="1.5" />
    <circle cx="10.5" cy="12" r="1.5" />
  </Svg>
);
export const LogoMark = () => (
  <svg width="22" height="22" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
    <rect width="64" height="64" rx="14" fill="var(--accent)" />
    <circle cx="28" cy="28" r="13" fill="none" stroke="#fff" strokeWidth="6" />
    <path d="M38 38l12 12" stroke="#fff" strokeWidth="7" strokeLinecap="round" />
  </svg>
);
