import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { resetTokenLoader } from '../features/accounts/reset-token-loader';
import { RouteErrorAlert, NotFoundPage, RootErrorPage } from './error-pages';
import { Layout } from './layout';
import { GuestOnly, RequireAdmin, RequireUser, RequireVerifiedEmail } from './route-guards';

// The route table of spec part 1 section 2, plus the part 2 routes the navigation links to. Pages
// load lazily, so a slow chunk shows the top loader.

function FirstPageLoading() {
  return null;
}

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RootErrorPage />,
    // The first page's code is still loading: nothing to show for those few milliseconds (and
    // saying so keeps react-router from warning about it on every load).
    HydrateFallback: FirstPageLoading,
    children: [
      {
        errorElement: <RouteErrorAlert />,
        children: [
          { index: true, lazy: () => import('../features/home/home-page').then((m) => ({ Component: m.HomePage })) },
          {
            path: 'browse/:tab?',
            lazy: () => import('../features/browse/browse-page').then((m) => ({ Component: m.BrowsePage })),
          },
          {
            path: 'howitworks',
            lazy: () => import('../features/pages/how-it-works-page').then((m) => ({ Component: m.HowItWorksPage })),
          },
          {
            path: 'about',
            lazy: () => import('../features/pages/about-page').then((m) => ({ Component: m.AboutPage })),
          },
          {
            path: 'contact',
            lazy: () => import('../features/pages/contact-page').then((m) => ({ Component: m.ContactPage })),
          },
          {
            path: 'terms',
            lazy: () => import('../features/pages/terms-page').then((m) => ({ Component: m.TermsPage })),
          },
          {
            path: 'where-the-money-goes',
            lazy: () => import('../features/ledger/ledger-page').then((m) => ({ Component: m.LedgerPage })),
          },
          {
            path: 'support',
            lazy: () => import('../features/pages/support-page').then((m) => ({ Component: m.SupportPage })),
          },
          {
            element: <GuestOnly />,
            children: [
              {
                path: 'login',
                lazy: () => import('../features/accounts/login-page').then((m) => ({ Component: m.LoginPage })),
              },
              {
                path: 'signup',
                lazy: () => import('../features/accounts/signup-page').then((m) => ({ Component: m.SignUpPage })),
              },
              {
                path: 'reset-password/:resetToken',
                loader: resetTokenLoader,
                lazy: () =>
                  import('../features/accounts/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage })),
              },
            ],
          },
          {
            element: <RequireUser />,
            children: [
              {
                path: 'user',
                lazy: () => import('../features/accounts/account-page').then((m) => ({ Component: m.AccountPage })),
              },
              {
                path: 'user/verify-email',
                lazy: () =>
                  import('../features/accounts/verify-email-page').then((m) => ({ Component: m.VerifyEmailPage })),
              },
              {
                path: 'artists/user',
                lazy: () =>
                  import('../features/artists/your-artists-page').then((m) => ({ Component: m.YourArtistsPage })),
              },
              {
                path: 'artists/user/:artistId/edit',
                lazy: () =>
                  import('../features/artists/edit-artist-page').then((m) => ({ Component: m.EditArtistPage })),
              },
              { path: 'music', element: <Navigate to="/music/albums/past-donations" replace /> },
              { path: 'music/albums', element: <Navigate to="/music/albums/past-donations" replace /> },
              {
                path: 'music/albums/:tab',
                lazy: () => import('../features/music/your-music-page').then((m) => ({ Component: m.YourMusicPage })),
              },
              {
                path: 'fundraisers/user',
                lazy: () =>
                  import('../features/fundraisers/your-fundraisers-page').then((m) => ({
                    Component: m.YourFundraisersPage,
                  })),
              },
              {
                path: 'fundraisers/user/:projectId/edit',
                lazy: () =>
                  import('../features/fundraisers/edit-fundraiser-page').then((m) => ({
                    Component: m.EditFundraiserPage,
                  })),
              },
              {
                path: 'fundraisers/user/:projectId',
                lazy: () =>
                  import('../features/fundraisers/manage-fundraiser-page').then((m) => ({
                    Component: m.ManageFundraiserPage,
                  })),
              },
              {
                path: 'music/album/:projectSlug',
                lazy: () => import('../features/music/album-page').then((m) => ({ Component: m.AlbumPage })),
              },
            ],
          },
          {
            element: <RequireVerifiedEmail />,
            children: [
              {
                path: 'artists/new',
                lazy: () =>
                  import('../features/artists/create-artist-page').then((m) => ({ Component: m.CreateArtistPage })),
              },
            ],
          },
          {
            path: 'fundraisers/new/*',
            lazy: () =>
              import('../features/fundraisers/wizard/wizard-page').then((m) => ({
                Component: m.FundraiserWizardPage,
              })),
          },
          {
            element: <RequireAdmin />,
            children: [
              {
                path: 'admin/*',
                lazy: () => import('../features/admin/admin-page').then((m) => ({ Component: m.AdminPage })),
              },
            ],
          },
          {
            path: 'projects/:projectSlugOrId/donate',
            lazy: () => import('../features/donations/donate-page').then((m) => ({ Component: m.DonatePage })),
          },
          {
            path: 'projects/:projectSlugOrId/donate/success',
            lazy: () =>
              import('../features/donations/donation-success-page').then((m) => ({ Component: m.DonationSuccessPage })),
          },
          {
            path: 'support/donate',
            lazy: () =>
              import('../features/donations/support-donate-page').then((m) => ({ Component: m.SupportDonatePage })),
          },
          {
            path: 'support/donate/success',
            lazy: () =>
              import('../features/donations/donation-success-page').then((m) => ({ Component: m.DonationSuccessPage })),
          },
          {
            path: 'purchases/:token',
            lazy: () => import('../features/donations/purchase-page').then((m) => ({ Component: m.PurchasePage })),
          },
          {
            path: 'projects/:projectSlugOrId',
            lazy: () =>
              import('../features/fundraisers/fundraiser-page').then((m) => ({ Component: m.FundraiserPage })),
          },
          {
            path: 'artists/:artistSlugOrId',
            lazy: () => import('../features/artists/artist-page').then((m) => ({ Component: m.ArtistPage })),
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
