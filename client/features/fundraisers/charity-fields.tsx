import { useQuery } from '@tanstack/react-query';
import { type Ref, useCallback, useId, useRef, useState } from 'react';
import { useController, useFormContext } from 'react-hook-form';
import { z } from 'zod';
import { SEARCH_DEBOUNCE_MS } from '../../../shared/constants';
import { centsToInput } from '../../../shared/money';
import { formatEin, normaliseEin } from '../../../shared/ein';
import { type Nonprofit } from '../../../shared/answers/charities';
import { charityFormShape } from '../../../shared/schemas/fundraisers';
import { fundraiserMessages } from '../../../shared/fundraiser-messages';
import { ApiError } from '../../api/errors';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { FormField } from '../../ui/form-field';
import { nonprofitQueryOptions, nonprofitSearchQueryOptions } from '../../api/fundraisers';
import { offlineReason } from '../../ui/needs-network';
import { isOfflineFailure } from '../../ui/offline-notice';

// The charity step's fields (spec part 2 sections 2 and 5): fundraising goal, donation minimum
// and the nonprofit, found by name or EIN. Shared by the wizard and the edit page.

export const IRS_LOOKUP_URL = 'https://apps.irs.gov/app/eos/';

export const charityFormSchema = z.object(charityFormShape);
export type CharityFormValues = z.input<typeof charityFormSchema>;

export const CHARITY_FIELDS = ['fundraisingGoalCents', 'donationMinimumCents', 'charityEin'] as const;

/** What the form starts with for a fundraiser that has these facts already. */
export function charityDefaults(facts: {
  fundraisingGoalCents?: number;
  donationMinimumCents?: number;
  charityEin?: string;
  charityName?: string;
}): CharityFormValues {
  return {
    fundraisingGoalCents: centsToInput(facts.fundraisingGoalCents),
    donationMinimumCents: centsToInput(facts.donationMinimumCents),
    charityEin: facts.charityEin ?? '',
    charityName: facts.charityName ?? '',
    charityLocation: '',
  };
}

type CharityFieldsProps = {
  /** A published fundraiser's charity can only be changed by an admin (spec part 2 section 4). */
  charityLocked?: boolean;
};

export function CharityFields({ charityLocked = false }: CharityFieldsProps) {
  const form = useFormContext<CharityFormValues>();
  const { errors } = form.formState;
  return (
    <>
      <div className="form-row">
        <FormField
          label="Fundraising goal"
          inputMode="decimal"
          autoComplete="off"
          hint="In US dollars, between $2 and $100,000."
          error={errors.fundraisingGoalCents?.message}
          {...form.register('fundraisingGoalCents')}
        />
        <FormField
          label="Donation minimum"
          inputMode="numeric"
          autoComplete="off"
          hint={fundraiserMessages.minimumDonationHint}
          error={errors.donationMinimumCents?.message}
          {...form.register('donationMinimumCents')}
        />
      </div>
      <NonprofitPicker locked={charityLocked} />
    </>
  );
}

function NonprofitPicker({ locked }: { locked: boolean }) {
  const id = useId();
  const form = useFormContext<CharityFormValues>();
  const {
    field: { ref, value, onChange, onBlur },
    fieldState,
  } = useController({ control: form.control, name: 'charityEin' });
  const name = form.watch('charityName');
  const location = form.watch('charityLocation');
  const [searching, setSearchingState] = useState(false);
  const chosen = value && !searching;
  const digits = normaliseEin(value);
  const error = fieldState.error?.message;
  const errorId = error ? `${id}-error` : undefined;
  const chosenId = `${id}-chosen`;

  /**
   * The chosen charity and the search replace each other in place; the one that appears takes the
   * focus (its button, or the search field), which would otherwise drop to the page. Both carry
   * the field's ref, so this is where they arrive.
   */
  const focusAfterSwap = useRef(false);
  const setSearching = (next: boolean) => {
    focusAfterSwap.current = true;
    setSearchingState(next);
  };
  const fieldRef = useCallback(
    (node: HTMLInputElement | HTMLButtonElement | null) => {
      ref(node);
      if (node && focusAfterSwap.current) {
        focusAfterSwap.current = false;
        node.focus();
      }
    },
    [ref],
  );

  function choose(nonprofit: Nonprofit) {
    form.setValue('charityName', nonprofit.name);
    form.setValue('charityLocation', nonprofit.locationAddress ?? '');
    onChange(nonprofit.ein);
    setSearching(false);
  }

  return (
    <fieldset className="nonprofit-picker" aria-describedby={errorId}>
      <legend>Nonprofit</legend>
      {chosen ? (
        <div className="nonprofit-chosen">
          <p className="nonprofit-name" id={`${chosenId}-name`}>
            {name || 'Chosen charity'}
          </p>
          <p className="muted" id={`${chosenId}-ein`}>
            EIN {digits ? formatEin(digits) : value}
            {location ? ` · ${location}` : ''}
          </p>
          {locked ? (
            <p className="field-hint">The charity of a published fundraiser can only be changed by an admin.</p>
          ) : (
            // Described by the charity, so landing on it after a choice says what was chosen.
            <button
              ref={fieldRef}
              type="button"
              className="button button-secondary"
              aria-describedby={`${chosenId}-name ${chosenId}-ein`}
              onClick={() => setSearching(true)}
            >
              Choose a different charity
            </button>
          )}
        </div>
      ) : (
        <NonprofitSearch
          ref={fieldRef}
          onBlur={onBlur}
          errorId={errorId}
          onChoose={choose}
          onCancel={value ? () => setSearching(false) : undefined}
          keepName={name}
        />
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

type NonprofitSearchProps = {
  ref: Ref<HTMLInputElement>;
  onBlur: () => void;
  errorId: string | undefined;
  onChoose: (nonprofit: Nonprofit) => void;
  /** Keep the charity chosen before (only when there is one). */
  onCancel?: () => void;
  keepName?: string;
};

function NonprofitSearch({ ref, onBlur, errorId, onChoose, onCancel, keepName }: NonprofitSearchProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const [term, setTerm] = useState('');
  const debounced = useDebouncedValue(term.trim(), SEARCH_DEBOUNCE_MS);
  const ein = normaliseEin(debounced);
  const byEin = useQuery({ ...nonprofitQueryOptions(ein ?? ''), enabled: ein !== null });
  const byName = useQuery({
    ...nonprofitSearchQueryOptions(debounced),
    enabled: ein === null && debounced.length >= 2,
  });
  const active = ein !== null ? byEin : debounced.length >= 2 ? byName : null;
  const results: Nonprofit[] =
    ein !== null ? (byEin.data ? [byEin.data.nonprofit] : []) : (byName.data?.nonprofits ?? []);
  const waiting = term.trim() !== debounced || Boolean(active?.isFetching);

  let status = '';
  if (active?.isError) {
    const failure = active.error;
    status =
      ein !== null && failure instanceof ApiError && failure.status === 404
        ? // As typed (spec part 2 section 8), so the user recognises what they searched for.
          `No charity found with EIN ${debounced}`
        : isOfflineFailure(failure)
          ? offlineReason('look up charities')
          : 'Something went wrong!';
  } else if (!waiting && active?.isSuccess) {
    status = results.length === 0 ? `No charities match “${debounced}”.` : `${results.length} found`;
  }

  return (
    <div className="nonprofit-search">
      <div className="field">
        <label htmlFor={id}>Search by EIN or name</label>
        <input
          ref={ref}
          id={id}
          type="search"
          autoComplete="off"
          value={term}
          onChange={(event) => setTerm(event.currentTarget.value)}
          onBlur={onBlur}
          aria-describedby={[hintId, errorId].filter(Boolean).join(' ')}
          aria-invalid={errorId ? true : undefined}
        />
        <p className="field-hint" id={hintId}>
          Your charity must be a registered US 501(c)(3). Don't know its EIN? Look it up with the{' '}
          <a href={IRS_LOOKUP_URL} target="_blank" rel="noreferrer">
            IRS Tax Exempt Organization Search
          </a>
          .
        </p>
      </div>
      <p className={active?.isError ? 'field-error' : 'muted nonprofit-status'} aria-live="polite">
        {waiting && debounced.length >= 2 ? 'Searching...' : status}
      </p>
      {results.length > 0 && !active?.isError && (
        <ul className="nonprofit-results" aria-label="Charities found">
          {results.map((nonprofit) => (
            <li key={nonprofit.ein}>
              <button type="button" className="nonprofit-result" onClick={() => onChoose(nonprofit)}>
                <span className="nonprofit-name">{nonprofit.name}</span>
                <span className="muted">
                  EIN {nonprofit.ein}
                  {nonprofit.locationAddress ? ` · ${nonprofit.locationAddress}` : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {onCancel && (
        <button type="button" className="link-button" onClick={onCancel}>
          Keep {keepName || 'the charity chosen before'}
        </button>
      )}
    </div>
  );
}
