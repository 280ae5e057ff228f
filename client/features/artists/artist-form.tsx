import { useState } from 'react';
import { Controller, type FieldValues } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { limits, UPLOAD_LIMITS_MB } from '../../../shared/constants';
import { messages } from '../../../shared/messages';
import type { updateArtistSchema } from '../../../shared/schemas/artists';
import { ApiError } from '../../api/http';
import { useSite } from '../../lib/site';
import { MessageDialog } from '../../ui/dialog';
import { FormField, TextareaField } from '../../ui/form-field';
import { ImageUpload } from '../../ui/image-upload';
import { applyServerFormErrors, useZodForm } from '../../ui/use-zod-form';

/** What the fields hold, for create and edit alike: only the profile image rule differs. */
export type ArtistFormValues = z.input<typeof updateArtistSchema>;

const fields = ['name', 'description', 'website', 'profileImage'] as const;

type Failure = { kind: 'form'; unmatched: string[] } | { kind: 'text'; message: string } | { kind: 'other' };

/** Spec part 1 section 8, artist create and update: how a refused save is explained. */
function describeFailure(error: unknown, putOnFields: (error: ApiError) => string[]): Failure {
  if (error instanceof ApiError && error.status === 400) {
    if (error.formErrors) return { kind: 'form', unmatched: putOnFields(error) };
    if (error.text || error.code) return { kind: 'text', message: error.message };
  }
  return { kind: 'other' };
}

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
  const { contactEmail } = useSite();
  const form = useZodForm(schema, defaultValues);
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const { errors, isSubmitting } = form.formState;

  async function save(values: TOutput) {
    try {
      await submit(values);
    } catch (error) {
      setFailure(
        describeFailure(error, (apiError) =>
          applyServerFormErrors(form, apiError.formErrors ?? [], fields).map((item) => item.message),
        ),
      );
    }
  }

  return (
    <>
      <form className="form artist-form" noValidate onSubmit={form.handleSubmit(save)}>
        <FormField
          label="Name"
          autoComplete="off"
          hint={messages.maxHint(limits.artistName)}
          error={errors.name?.message}
          {...form.register('name')}
        />
        <TextareaField
          label="Description"
          rows={8}
          hint={messages.maxHint(limits.artistDescription)}
          error={errors.description?.message}
          {...form.register('description')}
        />
        <FormField
          label="Website"
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://"
          hint={`Optional. ${messages.maxHint(limits.url)}`}
          error={errors.website?.message}
          {...form.register('website')}
        />
        <Controller
          control={form.control}
          name="profileImage"
          render={({ field, fieldState }) => (
            <ImageUpload
              label="Profile image"
              hint={`A JPEG or PNG image, less than ${UPLOAD_LIMITS_MB.image} MB. A square picture looks best.`}
              error={fieldState.error?.message}
              imageId={field.value || currentImage}
              previewAlt="Profile image preview"
              onUploaded={field.onChange}
              onUploadingChange={setUploading}
              buttonRef={field.ref}
            />
          )}
        />
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={uploading || isSubmitting}>
            {isSubmitting ? pendingLabel : submitLabel}
          </button>
          <Link className="button button-ghost" to={cancelTo}>
            Cancel
          </Link>
        </div>
      </form>
      <MessageDialog open={failure !== null} onClose={() => setFailure(null)} title={errorTitle}>
        {failure?.kind === 'form' && (
          <>
            <p>Please resolve the errors in the form and try again.</p>
            {failure.unmatched.length > 0 && (
              <ul>
                {failure.unmatched.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            )}
          </>
        )}
        {failure?.kind === 'text' && <p>{failure.message}</p>}
        {failure?.kind === 'other' && (
          <p>
            Something went wrong! Please try again. If the issue persists, please contact us at{' '}
            <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
          </p>
        )}
      </MessageDialog>
    </>
  );
}
