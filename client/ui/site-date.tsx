import { formatSiteDate, formatSiteTime } from '../../shared/site-dates';
import { useSite } from '../lib/site';
import './site-date.css';

/**
 * A moment as the calendar date it was in the site's time zone (SITE_TIME_ZONE), the same for
 * every viewer wherever they are; with `withTime`, the time of day there and the zone's name under
 * it. The money pages (the public ledger, the admin's lists) write dates with it.
 */
export function SiteDate({ moment, withTime = false }: { moment: string; withTime?: boolean }) {
  const { timeZone } = useSite();
  return (
    <time dateTime={moment} className="site-date">
      {formatSiteDate(moment, timeZone)}
      {withTime && <span className="site-date-time">{formatSiteTime(moment, timeZone)}</span>}
    </time>
  );
}
