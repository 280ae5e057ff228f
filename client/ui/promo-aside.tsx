import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { useLocation } from 'react-router';
import { fundraiserQueryOptions } from '../api/fundraisers';
import { reservedArtistSlugs } from '../../shared/routes';
import { siteQueryOptions } from '../lib/site';
import { useIsDesktop } from '../lib/use-is-desktop';
import { fundraiserPath } from '../../shared/public-pages';
import './promo-aside.css';

// The promo itself is drawn on desktops only: its code loads there, not on a phone's first page.
const PromoAside = lazy(() => import('./promo-card').then((m) => ({ default: m.PromoAside })));

/**
 * The promo's place, held while it loads so the page does not move when it arrives. Busy until
 * then: the page is not finished while it waits.
 */
function PromoPlaceholder() {
  return <div className="promo-aside promo-aside-loading" aria-hidden="true" aria-busy="true" />;
}

/**
 * The pages that carry the 'Greatest Hits' promo (spec part 1 section 2: 'desktop content pages').
 * It invites people to discover music, so it goes where they browse and read: browse, the public
 * artist and fundraiser pages, and the static pages. It stays off the home page (which has its own
 * featured list), and off every page where someone is completing a task, so nothing competes with
 * the form in front of them: log in, sign up, password reset, account, verify email, the wizard,
 * edit pages, donate and its success page, the support page (itself a donation), the user's own
 * lists and library, and admin.
 */
export function isPromoPage(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (/^\/(howitworks|about|contact|terms)$/.test(path)) return true;
  if (/^\/browse(\/[^/]+)?$/.test(path)) return true;
  // Public artist pages, not the site's own pages under /artists/ (new, user, the landing page).
  const artist = /^\/artists\/([^/]+)$/.exec(path);
  if (artist) return !reservedArtistSlugs.has(artist[1]!);
  // The fundraiser page itself, not its donate and success steps.
  return /^\/projects\/[^/]+$/.test(path);
}

/**
 * Wraps the routed page. On promo pages at desktop widths it adds the promo: at 1280px and wider as
 * a narrow sticky column beside the page, from 1024px to 1279px as a card after the page's content,
 * so the content itself is never narrowed or moved there. It is fetched only where it is shown, and
 * is left out when the fundraiser fails to load, is not found or is not public.
 */
export function WithPromo({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const isDesktop = useIsDesktop();
  // Wait for the real site settings: the placeholder's default id may not be this site's promo.
  const site = useQuery(siteQueryOptions);
  const promoId = site.isPlaceholderData ? undefined : site.data?.promoProjectId;
  const wanted = isDesktop && isPromoPage(pathname) && typeof promoId === 'number';
  const promo = useQuery({
    ...fundraiserQueryOptions(String(promoId)),
    enabled: wanted,
    // A missing promo is an operator's setting, not a blip: do not ask again and again.
    retry: false,
    staleTime: 5 * 60 * 1000,
  });
  const fundraiser = promo.data?.status === 'PUBLISHED' ? promo.data : undefined;
  // Not beside its own page.
  const path = pathname.replace(/\/+$/, '');
  const onItsOwnPage =
    fundraiser !== undefined && (path === fundraiserPath(fundraiser) || path === `/projects/${fundraiser.id}`);
  // The column is held while the promo loads, so the page does not jump sideways when it arrives.
  const shown = wanted && !promo.isError && !onItsOwnPage && (promo.isPending || fundraiser !== undefined);

  return (
    <div className={shown ? 'with-promo with-promo-shown' : 'with-promo'}>
      <div className="with-promo-content">{children}</div>
      {shown &&
        (fundraiser ? (
          <Suspense fallback={<PromoPlaceholder />}>
            <PromoAside fundraiser={fundraiser} />
          </Suspense>
        ) : (
          <PromoPlaceholder />
        ))}
    </div>
  );
}
