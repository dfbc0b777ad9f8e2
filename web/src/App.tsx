/** The console shell: sign-in gate, header with the company, navigation and the page of the current route. */
import { useEffect, useState } from 'preact/hooks';
import type { ComponentType } from 'preact';
import { apiFetch, type Me } from './http';
import { navigate, useRoute } from './router';
import { clearToken, getToken } from './session';
import { ChannelsPage } from './pages/channels/ChannelsPage';
import { LookupPage } from './pages/lookup/LookupPage';
import { OverviewPage } from './pages/overview/OverviewPage';
import { ReportsPage } from './pages/reports/ReportsPage';
import { SignInPage } from './pages/signin/SignInPage';
import { TemplatesPage } from './pages/templates/TemplatesPage';
import { WebhooksPage } from './pages/webhooks/WebhooksPage';
import { WizardPage } from './pages/wizard/WizardPage';

/** The navigation: path, label and page. */
const PAGES: Array<{ path: string; label: string; page: ComponentType }> = [
  { path: '/overview', label: 'Overview', page: OverviewPage },
  { path: '/channels', label: 'Channels', page: ChannelsPage },
  { path: '/templates', label: 'Templates', page: TemplatesPage },
  { path: '/send', label: 'Send', page: WizardPage },
  { path: '/reports', label: 'Reports', page: ReportsPage },
  { path: '/lookup', label: 'Message lookup', page: LookupPage },
  { path: '/webhooks', label: 'Webhooks', page: WebhooksPage },
];

export function App() {
  const route = useRoute();
  const token = getToken();
  const [me, setMe] = useState<Me | null>(null);

  useEffect(() => {
    if (!token) {
      setMe(null);
      if (route.path !== '/signin') navigate('/signin');
      return;
    }
    if (me) return;
    let live = true;
    apiFetch<{ data: Me }>('/api/v1/me')
      .then((body) => live && setMe(body.data))
      .catch(() => {
        // a 401 already sent the user to sign-in; anything else leaves the header without a name
      });
    return () => {
      live = false;
    };
  }, [token, route.path]);

  if (!token || route.path === '/signin') {
    return <SignInPage onSignedIn={(company) => { setMe(company); navigate('/channels'); }} />;
  }

  const current = PAGES.find((p) => route.path === p.path || route.path.startsWith(`${p.path}/`)) ?? PAGES[0];
  const Page = current.page;
  const signOut = () => {
    clearToken();
    setMe(null);
    navigate('/signin');
  };

  return (
    <div class="shell">
      <a
        class="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="topbar">
        <div class="brand">
          <span class="brand-mark" aria-hidden="true" />
          <span class="brand-name">Template Messaging</span>
        </div>
        <div class="account">
          <span class="company" data-testid="company-name" title={me?.company_id}>{me ? me.name : '…'}</span>
          <button type="button" class="button ghost" onClick={signOut}>Sign out</button>
        </div>
      </header>
      <nav class="nav" aria-label="Main">
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <a href={`#${p.path}`} aria-current={p === current ? 'page' : undefined}>{p.label}</a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" class="main" tabIndex={-1}>
        <Page />
      </main>
    </div>
  );
}
