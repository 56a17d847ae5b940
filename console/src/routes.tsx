// Every screen of the console. Each is loaded on first visit, so the first load carries only the
// shell and sign-in; the charts, the diff and the audit chain's hashing come with their screens.
import { createBrowserRouter, Navigate } from 'react-router';
import { Shell } from './layout/shell';
import { SignInPage } from './session/sign-in-page';

export const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage /> },
    { path: '/sign-in/callback', lazy: async () => ({ Component: (await import('./session/oidc-callback-page')).OidcCallbackPage }) },
    {
      path: '/',
      element: <Shell />,
      children: [
        { index: true, element: <Navigate to="/dashboard" replace /> },
        { path: 'dashboard', lazy: async () => ({ Component: (await import('./pages/dashboard/dashboard-page')).DashboardPage }) },
        { path: 'check', lazy: async () => ({ Component: (await import('./pages/check/check-page')).CheckPage }) },
        { path: 'reviews', lazy: async () => ({ Component: (await import('./pages/reviews/reviews-page')).ReviewsPage }) },
        { path: 'reviews/:validationId', lazy: async () => ({ Component: (await import('./pages/reviews/case-page')).CasePage }) },
        { path: 'sources', lazy: async () => ({ Component: (await import('./pages/sources/sources-page')).SourcesPage }) },
        { path: 'templates', lazy: async () => ({ Component: (await import('./pages/templates/templates-page')).TemplatesPage }) },
        { path: 'audit', lazy: async () => ({ Component: (await import('./pages/audit/audit-page')).AuditPage }) },
        { path: 'account', lazy: async () => ({ Component: (await import('./pages/account/account-page')).AccountPage }) },
        { path: 'system', lazy: async () => ({ Component: (await import('./pages/system/system-card-page')).SystemCardPage }) },
        { path: '*', lazy: async () => ({ Component: (await import('./pages/not-found-page')).NotFoundPage }) },
      ],
    },
  ],
  { basename: '/console' },
);
