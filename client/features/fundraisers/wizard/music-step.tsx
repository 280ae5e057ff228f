import { useCallback, useEffect, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { User } from '../../../../shared/answers/accounts';
import { trackEvent } from '../../../lib/analytics';
import { applyServerFormErrors, useZodForm } from '../../../ui/use-zod-form';
import { describeFailure, type FormFailure, FormFailureDialog } from '../../../ui/form-failure-dialog';
import { useSubmitMusic } from '../fundraiser-form-api';
import {
  emptyTrack,
  isMusicField,
  MusicFields,
  type MusicFormValues,
  musicFormSchema,
  useUploadCounter,
} from '../music-fields';
import { SlowSubmitOverlay } from '../slow-submit-overlay';
import { isDraftGone, useSubmitOnce } from './use-save-draft';
import { useWizardStore, type WizardMusic } from './wizard-store';
import { WizardActions } from './wizard-actions';

const emptyMusic = (): MusicFormValues => ({
  albumCover: '',
  previewTrackName: '',
  previewTrackFile: '',
  trackList: [emptyTrack()],
});

/** Only the names of files the values still use (or the one just uploaded) are worth keeping. */
function usedFileNames(values: MusicFormValues, fileNames: WizardMusic['fileNames'], justNamed?: string) {
  const used = [values.previewTrackFile, ...values.trackList.map((track) => track.file), justNamed];
  return Object.fromEntries(Object.entries(fileNames).filter(([uploadId]) => used.includes(uploadId)));
}

/**
 * 'Add your music tracks', the last step: PATCH /api/fundraisers/music, then the new fundraiser's
 * page (spec part 2 sections 2 and 4). What is typed and uploaded here is kept in the wizard's
 * store as it changes, so leaving the step (Back, a step link, a reload) does not lose it.
 */
export function MusicStep({ user, draftId, music }: { user: User; draftId: number; music: WizardMusic | null }) {
  const navigate = useNavigate();
  const submit = useSubmitMusic();
  const updateWizard = useWizardStore((state) => state.update);
  const restartWizard = useWizardStore((state) => state.restart);
  const once = useSubmitOnce();
  const [uploading, onUploadingChange] = useUploadCounter();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  // Read once: the form owns its values from here on and reports every change back.
  const [initial] = useState(() => music ?? { values: emptyMusic(), fileNames: {} });
  const form = useZodForm(musicFormSchema, initial.values, { mode: 'onSubmit' });
  const fieldNames = (formErrors: { field?: string }[]) =>
    formErrors.flatMap((item) => (item.field && isMusicField(item.field) ? [item.field] : []));

  /** Keeps values and file names together in the store, the names pruned to the files still used. */
  const keep = useCallback(
    (named?: { uploadId: string; fileName: string }) => {
      // A copy: the form goes on changing its own arrays in place.
      const values = structuredClone(form.getValues());
      const known = { ...useWizardStore.getState().music?.fileNames };
      if (named) known[named.uploadId] = named.fileName;
      updateWizard(user.email, { music: { values, fileNames: usedFileNames(values, known, named?.uploadId) } });
    },
    [form, updateWizard, user.email],
  );

  // A subscription rather than a re-render per keystroke: every change, field array moves and
  // uploads included, is copied to the store.
  useEffect(() => form.subscribe({ formState: { values: true }, callback: () => keep() }), [form, keep]);

  // The upload's id reaches the form right after its name does; the name is kept meanwhile.
  const onFileNamed = useCallback((uploadId: string, fileName: string) => keep({ uploadId, fileName }), [keep]);

  return (
    <FormProvider {...form}>
      <form
        className="form"
        noValidate
        onSubmit={once(
          form.handleSubmit(async (values) => {
            try {
              const created = await submit.mutateAsync({ id: draftId, ...values });
              await trackEvent('New fundraiser');
              // Marked finished rather than cleared: the wizard clears itself once it is left, so it
              // does not go back to its first step while the fundraiser's page loads.
              updateWizard(user.email, { finished: true });
              await navigate(`/projects/${created.urlSlug ?? created.id}`);
            } catch (error) {
              if (isDraftGone(error)) {
                restartWizard(user.email, 'draft-gone');
                return;
              }
              setFailure(
                describeFailure(error, (formErrors) => applyServerFormErrors(form, formErrors, fieldNames(formErrors))),
              );
            }
          }),
        )}
      >
        <p className="muted">
          Fans hear the preview track on your fundraiser's page; everyone who donates gets all the tracks, to stream or
          download.
        </p>
        <MusicFields onUploadingChange={onUploadingChange} fileNames={initial.fileNames} onFileNamed={onFileNamed} />
        <WizardActions
          back="details"
          label="Create fundraiser"
          pendingLabel="Creating fundraiser..."
          pending={form.formState.isSubmitting}
          disabled={uploading}
        />
        {uploading && <p className="field-hint wizard-uploading">Please wait for the uploads to finish.</p>}
      </form>
      <FormFailureDialog title="Unable to create fundraiser" failure={failure} onClose={() => setFailure(null)} />
      <SlowSubmitOverlay active={form.formState.isSubmitting} text="Creating your fundraiser..." />
    </FormProvider>
  );
}
