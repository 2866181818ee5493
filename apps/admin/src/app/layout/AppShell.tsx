import { useEffect, useRef } from 'react';
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
  { to: '/imports', label: 'Imports', minRole: 'member' },
  { to: '/budgets', label: 'Budgets', minRole: 'member' },
  { to: '/settings/api_keys', label: 'API keys', minRole: 'member' },
  { to: '/settings/security', label: 'Security', minRole: 'member' },
  { to: '/admin/users', label: 'Users', minRole: 'admin' },
  { to: '/admin/sso_providers', label: 'Providers', minRole: 'super_admin' },
  { to: '/admin/sso_audit_logs', label: 'Audit log', minRole: 'super_admin' },
];

/**
 * Header with role-aware navigation; on every navigation moves focus to the page heading and notes the page, to come
 * back to after an idle sign-out (return-place.ts).
 */
export function AppShell() {
  const { data: me } = useSession();
  const signOut = useSignOut();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);

  useEffect(() => {
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [location.pathname]);

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
        <nav aria-label="Main">
          <ul>
            {NAV.filter((item) => roleAtLeast(me.role, item.minRole)).map((item) => (
              <li key={item.to}>
                <NavLink to={item.to}>{item.label}</NavLink>
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
      </header>
      <main id="main" ref={main}>
        <Outlet />
      </main>
    </div>
  );
}
