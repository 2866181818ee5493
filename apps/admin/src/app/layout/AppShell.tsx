import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { roleAtLeast, type Role } from '@hearth/contracts';
import { notePlace } from '../auth/return-place';
import { useSession, useSignOut } from '../auth/useSession';

interface NavItem {
  to: string;
  label: string;
  minRole: Role;
}

const NAV: NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', minRole: 'member' },
  { to: '/accounts', label: 'Accounts', minRole: 'member' },
  { to: '/transactions', label: 'Transactions', minRole: 'member' },
  { to: '/imports', label: 'Imports', minRole: 'member' },
  { to: '/budgets', label: 'Budgets', minRole: 'member' },
  { to: '/categories', label: 'Categories', minRole: 'member' },
  // Changing the settings needs an admin (the API refuses members), so only admins are shown the page.
  { to: '/settings/household', label: 'Household', minRole: 'admin' },
  { to: '/settings/api_keys', label: 'API keys', minRole: 'member' },
  { to: '/settings/security', label: 'Security', minRole: 'member' },
  { to: '/admin/users', label: 'Users', minRole: 'admin' },
  { to: '/admin/sso_providers', label: 'Providers', minRole: 'super_admin' },
  { to: '/admin/sso_audit_logs', label: 'Audit log', minRole: 'super_admin' },
];

/**
 * Header with role-aware navigation; on every navigation moves focus to the page heading and notes the page, to come
 * back to after an idle sign-out (return-place.ts). At phone width (styles.css) the navigation and the account sit
 * behind a Menu button, a disclosure that closes on navigation and on Escape; on wider screens the button is hidden
 * and the menu is laid out in the header whatever its state.
 */
export function AppShell() {
  const { data: me } = useSession();
  const signOut = useSignOut();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  // Closed by any navigation, whether through the menu, a link in the page or the browser's back button.
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }

  useEffect(() => {
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [location.pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  const userId = me?.id;
  useEffect(() => {
    if (userId) notePlace(userId, location.pathname + location.search);
  }, [userId, location.pathname, location.search]);

  if (!me) return null;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Hearth</span>
        <button ref={menuButton} type="button" className="secondary menu-button" aria-expanded={menuOpen} aria-controls={menuId} onClick={() => setMenuOpen(!menuOpen)}>
          <span aria-hidden="true">☰</span> Menu
        </button>
        <div id={menuId} className={menuOpen ? 'menu open' : 'menu'}>
          <nav aria-label="Main">
            <ul>
              {NAV.filter((item) => roleAtLeast(me.role, item.minRole)).map((item) => (
                <li key={item.to}>
                  {/* The page's own link changes no address: close the menu here too. */}
                  <NavLink to={item.to} onClick={() => setMenuOpen(false)}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="who">
            <span>
              {me.email} <span className="muted">({me.role.replace('_', ' ')}, {me.family_name})</span>
            </span>
            <button type="button" className="secondary" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main id="main" ref={main}>
        <Outlet />
      </main>
    </div>
  );
}
