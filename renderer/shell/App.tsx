/** The application frame: skip link, sidebar, the current page, the status bar. */
import { useEffect, type ReactNode } from 'react';
import { useShell } from '../store/shell.js';
import { useSettings } from '../store/settings.js';
import type { PageId } from '../store/pages.js';
import { FederationPage } from '../workbenches/federation/FederationPage.js';
import { RelevancePage } from '../workbenches/relevance/RelevancePage.js';
import { CdcPage } from '../workbenches/cdc/CdcPage.js';
import { Sidebar } from './Sidebar.js';
import { StatusBar } from './StatusBar.js';
import { ServicesPage } from './ServicesPage.js';
import { SettingsPage } from './SettingsPage.js';

const PAGES: Record<PageId, () => ReactNode> = {
  federation: FederationPage,
  relevance: RelevancePage,
  cdc: CdcPage,
  services: ServicesPage,
  settings: SettingsPage,
};

export function App() {
  const page = useShell((s) => s.page);
  const connection = useShell((s) => s.connection);
  useEffect(() => {
    const offShell = useShell.getState().connect();
    const offSettings = useSettings.getState().connect();
    void useSettings.getState().load();
    return () => {
      offShell();
      offSettings();
    };
  }, []);
  const Page = PAGES[page];
  return (
    <div className="app">
      <a className="skip-link" href="#main" onClick={(e) => {
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}>
        Skip to content
      </a>
      <Sidebar />
      <main id="main" className="main" tabIndex={-1}>
        {connection === 'lost' && (
          <p className="banner banner-error" role="alert">
            The connection to the Loupe host was lost. If <code>loupe serve</code> was stopped, start it again and reload this page.
          </p>
        )}
        <Page key={page} />
      </main>
      <StatusBar />
    </div>
  );
}
