import { useId } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import type { z } from 'zod';
import { limits, UPLOAD_LIMITS_MB } from '../../shared/constants';
import { messages } from '../../shared/messages';
import {
  ARTIST_LINK_KEYS,
  ARTIST_LINK_ROWS,
  type ArtistLinkRow,
  linkLabelKey,
  linkUrlKey,
} from '../../shared/artist-links';
import type { updateArtistSchema } from '../../shared/schemas/artists';
import { FormField, TextareaField } from './form-field';
import { ImageUpload } from './image-upload';
import './artist-fields.css';

// The artist's fields (spec part 1 sections 2 and 4): name, description, website, profile image
// and four link rows. Shared by the artist create and edit pages and the fundraiser wizard's
// inline form.

/** What the fields hold, for create and edit alike: only the profile image rule differs. */
export type ArtistFormValues = z.input<typeof updateArtistSchema>;

/** Named like the payload keys, so the server's formErrors land on these fields as they are. */
export const ARTIST_FIELDS = ['name', 'description', 'website', 'profileImage', ...ARTIST_LINK_KEYS];

type ArtistFieldsProps = {
  /** The upload id of the artist's image today (edit), shown until another is uploaded. */
  currentImage?: string;
  onUploadingChange: (uploading: boolean) => void;
  /** The wizard asks in its own words ('Artist name', 'About the artist') and with a shorter box. */
  nameLabel?: string;
  descriptionLabel?: string;
  descriptionRows?: number;
};

/** Inside a react-hook-form FormProvider whose values are ArtistFormValues. */
export function ArtistFields({
  currentImage,
  onUploadingChange,
  nameLabel = 'Name',
  descriptionLabel = 'Description',
  descriptionRows = 8,
}: ArtistFieldsProps) {
  const form = useFormContext<ArtistFormValues>();
  const { errors } = form.formState;
  return (
    <>
      <FormField
        label={nameLabel}
        autoComplete="off"
        hint={messages.maxHint(limits.artistName)}
        error={errors.name?.message}
        {...form.register('name')}
      />
      <TextareaField
        label={descriptionLabel}
        rows={descriptionRows}
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
            onUploadingChange={onUploadingChange}
            buttonRef={field.ref}
          />
        )}
      />
      <ArtistLinkFields />
    </>
  );
}

/**
 * The four link rows: each a label and its address, side by side where there is room. Each row
 * is its own group ('Link 1'), so 'Label' and 'URL' are announced with the row they belong to.
 */
function ArtistLinkFields() {
  const hintId = useId();
  return (
    <fieldset className="artist-links" aria-describedby={hintId}>
      <legend>Links</legend>
      <p className="field-hint" id={hintId}>
        Optional. Up to four more links for your artist page, such as your Bandcamp, Instagram or YouTube: the label is
        what visitors see ({messages.maxHint(limits.linkLabel).toLowerCase()}), the URL where it leads.
      </p>
      <ol className="artist-link-rows">
        {ARTIST_LINK_ROWS.map((row) => (
          <li key={row}>
            <ArtistLinkRowFields row={row} />
          </li>
        ))}
      </ol>
    </fieldset>
  );
}

function ArtistLinkRowFields({ row }: { row: ArtistLinkRow }) {
  const form = useFormContext<ArtistFormValues>();
  const { errors } = form.formState;
  return (
    <fieldset className="artist-link-row">
      <legend>Link {row + 1}</legend>
      <div className="artist-link-fields">
        <FormField
          className="artist-link-label"
          label="Label"
          autoComplete="off"
          maxLength={limits.linkLabel}
          error={errors[linkLabelKey(row)]?.message}
          {...form.register(linkLabelKey(row))}
        />
        <FormField
          className="artist-link-url"
          label="URL"
          type="url"
          inputMode="url"
          // Four addresses of one kind: the browser's autofill would put the same one in each.
          autoComplete="off"
          placeholder="https://"
          error={errors[linkUrlKey(row)]?.message}
          {...form.register(linkUrlKey(row))}
        />
      </div>
    </fieldset>
  );
}
