import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { accountRoutes } from '../features/accounts/routes';
import { apiKeyRoutes } from '../features/api-keys/routes';
import { auditRoutes } from '../features/audit/routes';
import { authRoutes } from '../features/auth/routes';
import { budgetRoutes } from '../features/budgets/routes';
import { dashboardRoutes } from '../features/dashboard/routes';
import { categoryRoutes } from '../features/categories/routes';
import { householdRoutes } from '../features/household/routes';
import { importRoutes } from '../features/imports/routes';
import { securityRoutes } from '../features/security/routes';
import { providerRoutes } from '../features/sso-providers/routes';
import { transactionRoutes } from '../features/transactions/routes';
import { userRoutes } from '../features/users/routes';
import { Loading } from '../components/Loading';
import { RequireSession } from './auth/RequireSession';
import { returnPlaceFor } from './auth/return-place';
import { useSession } from './auth/useSession';
import { AppShell } from './layout/AppShell';

/** Where a signed-in user lands (the provider sign-in returns here): back where an idle sign-out left them, else the dashboard. */
function Home() {
  const { data: me } = useSession();
  return <Navigate to={(me && returnPlaceFor(me.id)) ?? '/dashboard'} replace />;
}

function NotFound() {
  return (
    <section className="page">
      <h1 tabIndex={-1}>Page not found</h1>
      <p>There is no page at this address.</p>
    </section>
  );
}

/** Composes the feature route arrays: sign-in outside the shell, everything else behind a session. */
export const router = createBrowserRouter([
  ...authRoutes.map((route) => ({ ...route, hydrateFallbackElement: <Loading /> })),
  {
    hydrateFallbackElement: <Loading />,
    element: (
      <RequireSession>
        <AppShell />
      </RequireSession>
    ),
    children: [
      { index: true, element: <Home /> },
      ...dashboardRoutes,
      ...accountRoutes,
      ...importRoutes,
      ...budgetRoutes,
      ...categoryRoutes,
      ...transactionRoutes,
      ...apiKeyRoutes,
      ...securityRoutes,
      {
        element: (
          <RequireSession minRole="admin">
            <Outlet />
          </RequireSession>
        ),
        children: [...householdRoutes, ...userRoutes],
      },
      {
        element: (
          <RequireSession minRole="super_admin">
            <Outlet />
          </RequireSession>
        ),
        children: [...providerRoutes, ...auditRoutes],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
]);
