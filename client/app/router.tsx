import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { pagePaths } from '../../shared/routes';
import { resetTokenLoader } from '../features/accounts/reset-token-loader';
import { RouteErrorAlert, NotFoundPage, RootErrorPage } from './error-pages';
import { Layout } from './layout';
import { GuestOnly, RequireAdmin, RequireUser, RequireVerifiedEmail } from './route-guards';

// The route table of spec part 1 section 2, plus the part 2 routes the navigation links to. Every
// path comes from `pagePaths` in shared/routes.ts, the table the server answers 404 from, so a page
// the router draws is never a 404 (tests/unit/page-routes.test.tsx checks that the two agree). Pages
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
          {
            path: pagePaths.home,
            lazy: () => import('../features/home/home-page').then((m) => ({ Component: m.HomePage })),
          },
          {
            path: pagePaths.browse,
            lazy: () => import('../features/browse/browse-page').then((m) => ({ Component: m.BrowsePage })),
          },
          {
            path: pagePaths.howItWorks,
            lazy: () => import('../features/pages/how-it-works-page').then((m) => ({ Component: m.HowItWorksPage })),
          },
          {
            path: pagePaths.about,
            lazy: () => import('../features/pages/about-page').then((m) => ({ Component: m.AboutPage })),
          },
          {
            path: pagePaths.contact,
            lazy: () => import('../features/pages/contact-page').then((m) => ({ Component: m.ContactPage })),
          },
          {
            path: pagePaths.terms,
            lazy: () => import('../features/pages/terms-page').then((m) => ({ Component: m.TermsPage })),
          },
          {
            path: pagePaths.ledger,
            lazy: () => import('../features/ledger/ledger-page').then((m) => ({ Component: m.LedgerPage })),
          },
          // The artist landing page answers at two addresses (DESIGN.md, corrections): one page.
          ...[pagePaths.forArtists, pagePaths.artistsJoin].map((path) => ({
            path,
            lazy: () => import('../features/pages/for-artists-page').then((m) => ({ Component: m.ForArtistsPage })),
          })),
          {
            path: pagePaths.support,
            lazy: () => import('../features/pages/support-page').then((m) => ({ Component: m.SupportPage })),
          },
          {
            element: <GuestOnly />,
            children: [
              {
                path: pagePaths.login,
                lazy: () => import('../features/accounts/login-page').then((m) => ({ Component: m.LoginPage })),
              },
              {
                path: pagePaths.signup,
                lazy: () => import('../features/accounts/signup-page').then((m) => ({ Component: m.SignUpPage })),
              },
              {
                path: pagePaths.resetPassword,
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
                path: pagePaths.account,
                lazy: () => import('../features/accounts/account-page').then((m) => ({ Component: m.AccountPage })),
              },
              {
                path: pagePaths.verifyEmail,
                lazy: () =>
                  import('../features/accounts/verify-email-page').then((m) => ({ Component: m.VerifyEmailPage })),
              },
              {
                path: pagePaths.giving,
                lazy: () => import('../features/giving/giving-page').then((m) => ({ Component: m.GivingPage })),
              },
              {
                path: pagePaths.yourArtists,
                lazy: () =>
                  import('../features/artists/your-artists-page').then((m) => ({ Component: m.YourArtistsPage })),
              },
              {
                path: pagePaths.editArtist,
                lazy: () =>
                  import('../features/artists/edit-artist-page').then((m) => ({ Component: m.EditArtistPage })),
              },
              { path: pagePaths.music, element: <Navigate to="/music/albums/past-donations" replace /> },
              { path: pagePaths.musicAlbums, element: <Navigate to="/music/albums/past-donations" replace /> },
              {
                path: pagePaths.musicAlbumList,
                lazy: () => import('../features/music/your-music-page').then((m) => ({ Component: m.YourMusicPage })),
              },
              {
                path: pagePaths.yourFundraisers,
                lazy: () =>
                  import('../features/fundraisers/your-fundraisers-page').then((m) => ({
                    Component: m.YourFundraisersPage,
                  })),
              },
              {
                path: pagePaths.editFundraiser,
                lazy: () =>
                  import('../features/fundraisers/edit-fundraiser-page').then((m) => ({
                    Component: m.EditFundraiserPage,
                  })),
              },
              {
                path: pagePaths.manageFundraiser,
                lazy: () =>
                  import('../features/fundraisers/manage-fundraiser-page').then((m) => ({
                    Component: m.ManageFundraiserPage,
                  })),
              },
              {
                path: pagePaths.fundraiserInsight,
                lazy: () =>
                  import('../features/fundraisers/insight-page').then((m) => ({
                    Component: m.FundraiserInsightPage,
                  })),
              },
              {
                path: pagePaths.album,
                lazy: () => import('../features/music/album-page').then((m) => ({ Component: m.AlbumPage })),
              },
            ],
          },
          {
            element: <RequireVerifiedEmail />,
            children: [
              {
                path: pagePaths.newArtist,
                lazy: () =>
                  import('../features/artists/create-artist-page').then((m) => ({ Component: m.CreateArtistPage })),
              },
            ],
          },
          {
            path: pagePaths.fundraiserWizard,
            lazy: () =>
              import('../features/fundraisers/wizard/wizard-page').then((m) => ({
                Component: m.FundraiserWizardPage,
              })),
          },
          {
            element: <RequireAdmin />,
            children: [
              {
                path: pagePaths.admin,
                lazy: () => import('../features/admin/admin-page').then((m) => ({ Component: m.AdminPage })),
              },
            ],
          },
          {
            path: pagePaths.donate,
            lazy: () => import('../features/donations/donate-page').then((m) => ({ Component: m.DonatePage })),
          },
          {
            path: pagePaths.donateSuccess,
            lazy: () =>
              import('../features/donations/donation-success-page').then((m) => ({ Component: m.DonationSuccessPage })),
          },
          {
            path: pagePaths.supportDonate,
            lazy: () =>
              import('../features/donations/support-donate-page').then((m) => ({ Component: m.SupportDonatePage })),
          },
          {
            path: pagePaths.supportDonateSuccess,
            lazy: () =>
              import('../features/donations/donation-success-page').then((m) => ({ Component: m.DonationSuccessPage })),
          },
          {
            path: pagePaths.purchase,
            lazy: () => import('../features/donations/purchase-page').then((m) => ({ Component: m.PurchasePage })),
          },
          {
            path: pagePaths.fundraiser,
            lazy: () =>
              import('../features/fundraisers/fundraiser-page').then((m) => ({ Component: m.FundraiserPage })),
          },
          {
            path: pagePaths.artist,
            lazy: () => import('../features/artists/artist-page').then((m) => ({ Component: m.ArtistPage })),
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
