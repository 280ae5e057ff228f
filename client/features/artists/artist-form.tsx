import { useState } from 'react';
import { type FieldValues, FormProvider } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ARTIST_FIELDS, ArtistFields, type ArtistFormValues } from '../../ui/artist-fields';
import { describeFailure, type FormFailure, FormFailureDialog } from '../../ui/form-failure-dialog';
import { applyServerFormErrors, useZodForm } from '../../ui/use-zod-form';
import { NetworkButton } from '../../ui/needs-network';

type ArtistFormProps<TOutput extends FieldValues> = {
  /** createArtistSchema or updateArtistSchema: the same schema the server checks. */
  schema: z.ZodType<TOutput, ArtistFormValues>;
  defaultValues: ArtistFormValues;
  /** The upload id of the artist's image today (edit), shown until another is uploaded. */
  currentImage?: string;
  submitLabel: string;
  pendingLabel: string;
  errorTitle: string;
  cancelTo: string;
  /** Saves and moves on; a rejection is explained in the error dialog. */
  submit: (values: TOutput) => Promise<unknown>;
};

/** Name, description, website and profile image: the artist form of create and edit. */
export function ArtistForm<TOutput extends FieldValues>({
  schema,
  defaultValues,
  currentImage,
  submitLabel,
  pendingLabel,
  errorTitle,
  cancelTo,
  submit,
}: ArtistFormProps<TOutput>) {
  const form = useZodForm(schema, defaultValues);
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const { isSubmitting } = form.formState;

  async function save(values: TOutput) {
    try {
      await submit(values);
    } catch (error) {
      setFailure(describeFailure(error, (formErrors) => applyServerFormErrors(form, formErrors, ARTIST_FIELDS)));
    }
  }

  return (
    <FormProvider {...form}>
      <form className="form artist-form" noValidate onSubmit={form.handleSubmit(save)}>
        <ArtistFields currentImage={currentImage} onUploadingChange={setUploading} />
        <div className="actions">
          <NetworkButton
            action="save the artist"
            type="submit"
            className="button button-primary"
            disabled={uploading || isSubmitting}
          >
            {isSubmitting ? pendingLabel : submitLabel}
          </NetworkButton>
          <Link className="button button-ghost" to={cancelTo}>
            Cancel
          </Link>
        </div>
      </form>
      <FormFailureDialog
        title={errorTitle}
        failure={failure}
        onClose={() => setFailure(null)}
        otherText="Something went wrong! Please try again. If the issue persists, please contact us at"
      />
    </FormProvider>
  );
}
