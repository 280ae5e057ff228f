import { useFormContext, useWatch } from 'react-hook-form';
import { TIP_PRESETS } from '../../../shared/money';
import type { TipChoice } from '../../../shared/donation-rules';
import type { DonationFormValues } from '../../../shared/schemas/donations';
import { FormField } from '../../ui/form-field';

// The tip of a donation (spec part 2 section 4, Tip selection): No tip, 10 %, 20 %, 30 % or a
// custom amount; the presets wait for a donation.

export function TipChoices({ id, presetsOff }: { id: string; presetsOff: boolean }) {
  const form = useFormContext<DonationFormValues>();
  const current = useWatch({ control: form.control, name: 'tipChoice' });
  const error = form.formState.errors.tipCents?.message;
  const choose = (choice: TipChoice) => {
    form.setValue('tipChoice', choice);
    form.clearErrors('tipCents');
  };
  const option = (choice: TipChoice, label: string, extra: { id?: string; disabled?: boolean } = {}) => (
    <button
      key={choice}
      id={extra.id}
      type="button"
      className={`tip-option${current === choice ? ' tip-option-chosen' : ''}`}
      aria-pressed={current === choice}
      disabled={extra.disabled}
      onClick={() => choose(choice)}
    >
      {label}
    </button>
  );
  return (
    <fieldset
      className={`field tip-choices${error ? ' field-invalid' : ''}`}
      aria-describedby={`${id}-tip-hint${error ? ` ${id}-tip-error` : ''}`}
    >
      <legend>Tip</legend>
      <p className="field-hint" id={`${id}-tip-hint`}>
        An optional tip keeps the site running; the charity&apos;s share stays the same.
      </p>
      <div className="tip-options">
        {option('none', 'No tip', { id: `${id}-tipChoice` })}
        {TIP_PRESETS.map((percent) => option(`${percent}`, `${percent}%`, { disabled: presetsOff }))}
        {option('custom', 'Custom')}
      </div>
      {current === 'custom' && (
        <FormField
          label="Custom tip"
          inputMode="decimal"
          autoComplete="off"
          className="money-field"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-tip-error` : undefined}
          {...form.register('tipCents')}
        />
      )}
      {error && (
        <p className="field-error" id={`${id}-tip-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
