import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { User } from '../../../../shared/schemas/accounts';
import { trackEvent } from '../../../lib/analytics';
import { applyServerFormErrors, useZodForm } from '../../../ui/use-zod-form';
import { describeFailure, type FormFailure, FormFailureDialog, SlowSubmitOverlay } from '../form-failure';
import { useSubmitMusic } from '../fundraiser-form-api';
import { emptyTrack, isMusicField, MusicFields, musicFormSchema, useUploadCounter } from '../music-fields';
import { useWizardStore } from './wizard-store';
import { WizardActions } from './wizard-actions';

/**
 * 'Add your music tracks', the last step: PATCH /api/fundraisers/music, then the new fundraiser's
 * page (spec part 2 sections 2 and 4).
 */
export function MusicStep({ user, draftId }: { user: User; draftId: number }) {
  const navigate = useNavigate();
  const submit = useSubmitMusic();
  const updateWizard = useWizardStore((state) => state.update);
  const [uploading, onUploadingChange] = useUploadCounter();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const form = useZodForm(
    musicFormSchema,
    {
      albumCover: '',
      previewTrackName: '',
      previewTrackFile: '',
      trackList: [emptyTrack()],
    },
    { mode: 'onSubmit' },
  );
  const fieldNames = (formErrors: { field?: string }[]) =>
    formErrors.flatMap((item) => (item.field && isMusicField(item.field) ? [item.field] : []));

  return (
    <FormProvider {...form}>
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          try {
            const created = await submit.mutateAsync({ id: draftId, ...values });
            await trackEvent('New fundraiser');
            // Marked finished rather than cleared: the wizard clears itself once it is left, so it
            // does not go back to its first step while the fundraiser's page loads.
            updateWizard(user.email, { finished: true });
            await navigate(`/projects/${created.urlSlug ?? created.id}`);
          } catch (error) {
            setFailure(
              describeFailure(error, (formErrors) => applyServerFormErrors(form, formErrors, fieldNames(formErrors))),
            );
          }
        })}
      >
        <p className="muted">
          Fans hear the preview track on your fundraiser's page; everyone who donates gets all the tracks, to stream or
          download.
        </p>
        <MusicFields onUploadingChange={onUploadingChange} />
        <WizardActions
          back="details"
          label="Create fundraiser"
          pendingLabel="Creating fundraiser..."
          pending={submit.isPending}
          disabled={uploading}
        />
        {uploading && <p className="field-hint wizard-uploading">Please wait for the uploads to finish.</p>}
      </form>
      <FormFailureDialog title="Unable to create fundraiser" failure={failure} onClose={() => setFailure(null)} />
      <SlowSubmitOverlay active={submit.isPending} text="Creating your fundraiser..." />
    </FormProvider>
  );
}
