import { useFormContext, useWatch } from 'react-hook-form';
import { donationLimits, latestDeliveryDate } from '../../../shared/donation-rules';
import type { DonationFormValues } from '../../../shared/schemas/donations';
import { CheckboxField, FormField, TextareaField } from '../../ui/form-field';

// "This is a gift" (issue 26): the album goes to someone else, with a message, now or on a day
// up to a year ahead. The fields show once the box is ticked; unticked, whatever was typed in them
// stays out of the payment (shared/schemas/donations.ts).

export function GiftFields({ id, today }: { id: string; today: () => string }) {
  const form = useFormContext<DonationFormValues>();
  const [isGift, message] = useWatch({ control: form.control, name: ['isGift', 'gift.message'] });
  const errors = form.formState.errors.gift;
  const left = donationLimits.giftMessageMax - message.length;
  // The site's today, worked out only once the box is ticked (see DonationForm).
  const todayThere = isGift ? today() : '';
  return (
    <fieldset className="gift-fields">
      <legend className="visually-hidden">Gift</legend>
      <CheckboxField
        id={`${id}-isGift`}
        label="This is a gift"
        hint={isGift ? undefined : 'Send the album to someone else, with a message. The receipt stays yours.'}
        {...form.register('isGift')}
      />
      {isGift && (
        <div className="gift-details stack">
          <FormField
            id={`${id}-gift-recipientName`}
            label="Recipient name"
            autoComplete="off"
            error={errors?.recipientName?.message}
            {...form.register('gift.recipientName')}
          />
          <FormField
            id={`${id}-gift-recipientEmail`}
            label="Recipient email"
            type="email"
            autoComplete="off"
            hint="The album and your message go here. It is theirs when they sign up with this address."
            error={errors?.recipientEmail?.message}
            {...form.register('gift.recipientEmail')}
          />
          <TextareaField
            id={`${id}-gift-message`}
            label="Message (optional)"
            rows={4}
            hint={
              left >= 0 ? `${left} of ${donationLimits.giftMessageMax} characters left` : `${-left} characters too many`
            }
            error={errors?.message?.message}
            {...form.register('gift.message')}
          />
          <FormField
            id={`${id}-gift-deliverOn`}
            label="Delivery date (optional)"
            type="date"
            min={todayThere}
            max={latestDeliveryDate(todayThere)}
            hint="Leave it empty to send the gift now. A later day: it goes out that morning."
            error={errors?.deliverOn?.message}
            {...form.register('gift.deliverOn')}
          />
        </div>
      )}
    </fieldset>
  );
}
