import { useId } from 'react';
import { useSearchParams } from 'react-router';
import './insight.css';

// The period an insight page shows (issue 29), kept in the address (`?days=7`), so a reload or a
// shared link shows the same days. The API takes any number of days up to ten
// years, or all: an address asking for another number shows it, with no choice here ticked.

export const INSIGHT_PERIODS = [
  { days: '7', label: '7 days' },
  { days: '30', label: '30 days' },
  { days: '90', label: '90 days' },
  { days: 'all', label: 'All time' },
] as const;

/** What the API is asked when the address says nothing (the API's own default). */
const DEFAULT_DAYS = '30';

/**
 * The period in the address, and how to choose another. The address is replaced, not pushed: arrow
 * keys move through the radios a step at a time, and a history entry for each would make Back walk
 * through them instead of leaving the page.
 */
export function useInsightPeriod(): [string, (days: string) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const days = searchParams.get('days') ?? DEFAULT_DAYS;
  const choose = (next: string) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        params.set('days', next);
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  return [days, choose];
}

export function PeriodPicker({ days, onChange }: { days: string; onChange: (days: string) => void }) {
  const name = useId();
  return (
    <fieldset className="period-picker">
      <legend>Period</legend>
      <div className="period-picker-options">
        {INSIGHT_PERIODS.map((period) => (
          <label key={period.days}>
            <input
              type="radio"
              name={name}
              value={period.days}
              checked={days === period.days}
              onChange={() => onChange(period.days)}
            />
            <span>{period.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
