import type { ComponentProps } from 'react';
import { type DefaultValues, useFormContext } from 'react-hook-form';
import type { z } from 'zod';
import { fundraiserLimits, type Genre, GENRES } from '../../../shared/constants';
import { messages } from '../../../shared/messages';
import type { fundraiserDetailsSchema } from '../../../shared/schemas/fundraisers';
import { FormField, SelectField, TextareaField } from '../../ui/form-field';

// The details step's fields (spec part 2 sections 2 and 5): name, description, genres and the
// optional video codes. Shared by the wizard and the edit page.

export type DetailsFormValues = z.input<typeof fundraiserDetailsSchema>;

export const DETAILS_FIELDS = ['name', 'description', 'genre', 'genreSecondary', 'youtubeLink', 'vimeoLink'] as const;

function isGenre(value: string | undefined): value is Genre {
  return GENRES.some((genre) => genre === value);
}

/**
 * What the form starts with for a fundraiser that has these facts already. A missing genre leaves
 * the select on its empty choice, which the schema refuses with 'Please select one of the options.'
 */
export function detailsDefaults(
  facts: Partial<Record<(typeof DETAILS_FIELDS)[number], string>>,
): DefaultValues<DetailsFormValues> {
  return {
    name: facts.name ?? '',
    description: facts.description ?? '',
    genre: isGenre(facts.genre) ? facts.genre : undefined,
    genreSecondary: isGenre(facts.genreSecondary) ? facts.genreSecondary : '',
    youtubeLink: facts.youtubeLink ?? '',
    vimeoLink: facts.vimeoLink ?? '',
  };
}

export function DetailsFields() {
  const form = useFormContext<DetailsFormValues>();
  const { errors } = form.formState;
  const videoHint = (example: string, code: string) =>
    `Optional. Only the video code, not the URL: for ${example} enter ${code}. ${messages.maxHint(fundraiserLimits.videoCode)}`;
  return (
    <>
      <FormField
        label="Name"
        autoComplete="off"
        hint={messages.maxHint(fundraiserLimits.name)}
        error={errors.name?.message}
        {...form.register('name')}
      />
      <TextareaField
        label="Description"
        rows={8}
        hint={messages.maxHint(fundraiserLimits.description)}
        error={errors.description?.message}
        {...form.register('description')}
      />
      <div className="form-row">
        <GenreSelect
          label="Primary genre"
          emptyLabel="Choose a genre"
          error={errors.genre?.message}
          {...form.register('genre')}
        />
        <GenreSelect
          label="Secondary genre"
          emptyLabel="None"
          hint="Optional."
          error={errors.genreSecondary?.message}
          {...form.register('genreSecondary')}
        />
      </div>
      <FormField
        label="YouTube code"
        autoComplete="off"
        spellCheck={false}
        hint={videoHint('https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ')}
        error={errors.youtubeLink?.message}
        {...form.register('youtubeLink')}
      />
      <FormField
        label="Vimeo code"
        autoComplete="off"
        spellCheck={false}
        hint={videoHint('https://vimeo.com/76979871', '76979871')}
        error={errors.vimeoLink?.message}
        {...form.register('vimeoLink')}
      />
    </>
  );
}

type GenreSelectProps = ComponentProps<typeof SelectField> & { emptyLabel: string };

/** One of the 16 genres (shared/constants.ts GENRES), with an empty first choice. */
function GenreSelect({ emptyLabel, ...fieldProps }: GenreSelectProps) {
  return (
    <SelectField {...fieldProps}>
      <option value="">{emptyLabel}</option>
      {GENRES.map((genre) => (
        <option key={genre} value={genre}>
          {genre}
        </option>
      ))}
    </SelectField>
  );
}
