/** The application frame: skip link, sidebar, the current page, the status bar. */
import { useEffect, type ReactNode } from 'react';
import { useShell } from '../store/shell.js';
import { useSettings } from '../store/settings.js';
import type { PageId } from '../store/pages.js';
import { FederationPage } from '../workbenches/federation/FederationPage.js';
import { RelevancePage } from '../workbenches/relevance/RelevancePage.js';
import { CdcPage } from '../workbenches/cdc/CdcPage.js';
import { PageErrorBoundary } from '../components/PageErrorBoundary.js';
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
  const unauthorized = useShell((s) => s.unauthorized);
  const transport = useShell((s) => s.transport);
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
        {unauthorized && transport === 'http' ? (
          <p className="banner banner-error" role="alert">
            This page has no valid access token. Open the exact address <code>loupe serve</code> printed (it ends in <code>/?token=…</code>); each run
            prints a new one.
          </p>
        ) : (
          connection === 'lost' && (
            <p className="banner banner-error" role="alert">
              The connection to the Loupe host was lost. If <code>loupe serve</code> was stopped, start it again and open the address it prints.
            </p>
          )
        )}
        <PageErrorBoundary key={page}>
          <Page />
        </PageErrorBoundary>
      </main>
      <StatusBar />
    </div>
  );
}
