import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import {
  type FieldValues,
  FormProvider,
  useController,
  useFieldArray,
  useFormContext,
  type UseFormReturn,
} from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import type { FormErrorItem } from '../../../shared/answers/api';
import { fundraiserLimits, UPLOAD_LIMITS_MB } from '../../../shared/constants';
import { charityFormShape, fundraiserDetailsSchema, legacyFormSchema } from '../../../shared/schemas/fundraisers';
import { fundraiserMessages } from '../../../shared/fundraiser-messages';
import { type Fundraiser } from '../../../shared/answers/fundraisers';
import { fundraiserKeys, fundraiserQueryOptions } from '../../api/fundraisers';
import { UploadCancelled } from '../../api/xhr-upload';
import { useUser } from '../../lib/session';
import { usePageTitle } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { FormField } from '../../ui/form-field';
import { describeFailure, type FormFailure, FormFailureDialog } from '../../ui/form-failure-dialog';
import { fundraiserTitle } from '../../../shared/public-pages';
import { Spinner } from '../../ui/spinner';
import { applyServerFormErrors, useZodForm } from '../../ui/use-zod-form';
import { CHARITY_FIELDS, CharityFields, charityDefaults } from './charity-fields';
import { DETAILS_FIELDS, DetailsFields, detailsDefaults } from './details-fields';
import { useUpdateFundraiser, useUpdateFundraiserV1 } from './fundraiser-form-api';
import { FundraiserNotFound } from './fundraiser-not-found';
import {
  AlbumCoverField,
  emptyTrack,
  isMusicField,
  MusicFields,
  musicFormSchema,
  PreviewTrackFields,
  useUploadCounter,
} from './music-fields';
import { SlowSubmitOverlay } from './slow-submit-overlay';
import './fundraisers-form.css';
import { isNotFound } from '../../api/http';
import { NetworkButton } from '../../ui/needs-network';
import { LoadFailure } from '../../ui/offline-notice';

// The fundraiser edit page, /fundraisers/user/{projectId}/edit (spec part 2 sections 2, 4 and 8):
// the streaming form (JSON), or for legacy v1 fundraisers the v1 form (multipart, with the album
// as one zip file) which an admin can 'Upgrade to streaming'.

export function EditFundraiserPage() {
  const { projectId = '' } = useParams();
  const valid = /^\d+$/.test(projectId);
  const user = useUser();
  const query = useQuery({ ...fundraiserQueryOptions(projectId), enabled: valid });
  const notFound = !valid || isNotFound(query.error);
  usePageTitle(
    query.data ? `Edit ${query.data.name || 'fundraiser'}` : notFound ? 'Fundraiser not found' : 'Edit fundraiser',
  );

  if (notFound || query.data?.canManage === false) return <FundraiserNotFound forManaging />;
  if (query.isPending) return <Spinner label="Loading the fundraiser" />;
  if (query.isError) {
    return (
      <div className="page narrow">
        <LoadFailure error={query.error} retry={query.refetch}>
          <Alert tone="error">Something went wrong!</Alert>
        </LoadFailure>
      </div>
    );
  }
  const fundraiser = query.data;
  const isAdmin = Boolean(user?.isAdmin);
  return (
    <div className="page narrow stack edit-fundraiser">
      <p>
        <Link to={`/fundraisers/user/${fundraiser.id}`}>← Back to {fundraiserTitle(fundraiser)}</Link>
      </p>
      <h1>Edit fundraiser</h1>
      {fundraiser.status === 'PUBLISHED' && !isAdmin ? (
        // Non-admins edit only drafts (spec part 2 section 4); the server refuses the rest anyway.
        <Alert tone="info" title="This fundraiser is published">
          <p>{fundraiserMessages.onlyDraftsEditable}</p>
        </Alert>
      ) : (
        <EditForms fundraiser={fundraiser} isAdmin={isAdmin} />
      )}
    </div>
  );
}

function EditForms({ fundraiser, isAdmin }: { fundraiser: Fundraiser; isAdmin: boolean }) {
  const [upgrading, setUpgrading] = useState(false);
  // Once published, the charity is the admins' to change (spec part 2 section 4).
  const charityLocked = fundraiser.status === 'PUBLISHED' && !isAdmin;
  if (!fundraiser.hasV1Tracks || upgrading) {
    return (
      <>
        {upgrading && (
          <Alert tone="info" title="Upgrading to streaming">
            <p>
              Upload a file for every track: saving replaces the album zip with streamable tracks.{' '}
              <button type="button" className="link-button" onClick={() => setUpgrading(false)}>
                Keep the legacy form
              </button>
            </p>
          </Alert>
        )}
        <StreamingForm fundraiser={fundraiser} charityLocked={charityLocked} />
      </>
    );
  }
  return (
    <>
      {isAdmin && (
        <Alert tone="info" title="Legacy fundraiser">
          <p>This fundraiser's music is one album zip file. Upgrade it so fans can stream each track.</p>
          <button type="button" className="button button-secondary" onClick={() => setUpgrading(true)}>
            Upgrade to streaming
          </button>
        </Alert>
      )}
      <LegacyForm fundraiser={fundraiser} charityLocked={charityLocked} />
    </>
  );
}

/** What both forms start with: details, charity, album cover and preview track. */
function commonDefaults(fundraiser: Fundraiser) {
  return {
    albumCover: fundraiser.albumCover ?? '',
    previewTrackName: fundraiser.previewTrackName ?? '',
    previewTrackFile: fundraiser.previewTrackFile ?? '',
    ...detailsDefaults({
      name: fundraiser.name,
      description: fundraiser.description,
      genre: fundraiser.genre,
      genreSecondary: fundraiser.genreSecondary,
      youtubeLink: fundraiser.youtubeLink,
      vimeoLink: fundraiser.vimeoLink,
    }),
    ...charityDefaults({
      fundraisingGoalCents: fundraiser.fundraisingGoalCents ?? fundraiser.donationGoal,
      donationMinimumCents: fundraiser.donationMinimumCents,
      charityEin: fundraiser.charityEin || fundraiser.supportedOrgEin,
      charityName: fundraiser.supportedOrg,
    }),
  };
}

/** Puts the server's formErrors on the fields these forms have; returns those that match none. */
function putOnFields<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues>, formErrors: FormErrorItem[]) {
  const known: readonly string[] = [...DETAILS_FIELDS, ...CHARITY_FIELDS, 'albumZip'];
  const names = formErrors.flatMap((item) =>
    item.field && (known.includes(item.field) || isMusicField(item.field)) ? [item.field] : [],
  );
  return applyServerFormErrors(form, formErrors, names);
}

/** False once the form has gone: an answer that arrives later must not navigate or open dialogs. */
function useMountedRef() {
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}

/**
 * After a save: fresh data everywhere, then the project view (spec part 2 section 2); unless the
 * user has left the page meanwhile, who is not to be pulled back.
 */
function useAfterSave(id: number) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mounted = useMountedRef();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: fundraiserKeys.all });
    if (mounted.current) await navigate(`/fundraisers/user/${id}`);
  };
}

const streamingSchema = z.object({
  ...fundraiserDetailsSchema.shape,
  ...charityFormShape,
  ...musicFormSchema.shape,
});

/** PATCH /api/fundraisers/{id}/update with JSON: the wizard's details, charity and music in one form. */
function StreamingForm({ fundraiser, charityLocked }: { fundraiser: Fundraiser; charityLocked: boolean }) {
  const update = useUpdateFundraiser(fundraiser.id);
  const afterSave = useAfterSave(fundraiser.id);
  const [uploading, onUploadingChange] = useUploadCounter();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const tracks = fundraiser.tracksList.map((track) => ({ id: track.id, name: track.name, file: track.uploadId ?? '' }));
  const form = useZodForm(
    streamingSchema,
    {
      ...commonDefaults(fundraiser),
      trackList: tracks.length > 0 ? tracks : [emptyTrack()],
    },
    { mode: 'onSubmit' },
  );
  const sending = update.isPending || form.formState.isSubmitting;

  return (
    <FormProvider {...form}>
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          try {
            await update.mutateAsync({
              name: values.name,
              description: values.description,
              genre: values.genre,
              // Sent as typed, so that clearing the secondary genre clears it.
              genreSecondary: form.getValues('genreSecondary') ?? '',
              youtubeLink: values.youtubeLink,
              vimeoLink: values.vimeoLink,
              charityEin: values.charityEin,
              donationMinimumCents: values.donationMinimumCents,
              fundraisingGoalCents: values.fundraisingGoalCents,
              albumCover: values.albumCover,
              previewTrackName: values.previewTrackName,
              previewTrackFile: values.previewTrackFile,
              trackList: values.trackList,
            });
            await afterSave();
          } catch (error) {
            setFailure(describeFailure(error, (formErrors) => putOnFields(form, formErrors)));
          }
        })}
      >
        <EditSections charityLocked={charityLocked}>
          <MusicFields onUploadingChange={onUploadingChange} />
        </EditSections>
        <EditActions fundraiserId={fundraiser.id} uploading={uploading} sending={sending} />
      </form>
      <FormFailureDialog title="Unable to save changes" failure={failure} onClose={() => setFailure(null)} />
      <SlowSubmitOverlay active={sending} text="Updating your fundraiser..." />
    </FormProvider>
  );
}

/** Details and charity, as in the wizard, then the form's own music fields. */
function EditSections({ charityLocked, children }: { charityLocked: boolean; children: ReactNode }) {
  return (
    <>
      <section className="form-section stack" aria-labelledby="edit-details">
        <h2 id="edit-details">Details</h2>
        <DetailsFields />
      </section>
      <section className="form-section stack" aria-labelledby="edit-charity">
        <h2 id="edit-charity">Charity</h2>
        <CharityFields charityLocked={charityLocked} />
      </section>
      <section className="form-section stack" aria-labelledby="edit-music">
        <h2 id="edit-music">Music</h2>
        {children}
      </section>
    </>
  );
}

function EditActions({
  fundraiserId,
  uploading,
  sending,
}: {
  fundraiserId: number;
  uploading: boolean;
  sending: boolean;
}) {
  return (
    <>
      <div className="wizard-actions">
        <Link className="button button-ghost" to={`/fundraisers/user/${fundraiserId}`}>
          Cancel
        </Link>
        <NetworkButton
          action="save your changes"
          type="submit"
          className="button button-primary"
          disabled={uploading || sending}
        >
          {sending ? 'Saving...' : 'Save changes'}
        </NetworkButton>
      </div>
      {uploading && <p className="field-hint">Please wait for the uploads to finish.</p>}
    </>
  );
}

type LegacyFormValues = z.input<ReturnType<typeof legacyFormSchema>>;

/**
 * PATCH /api/fundraisers/{id}/updatev1 as multipart: the text fields (money as cent strings),
 * `trackList` as a JSON array of names, and the optional `albumZip` file.
 */
function LegacyForm({ fundraiser, charityLocked }: { fundraiser: Fundraiser; charityLocked: boolean }) {
  const [percent, setPercent] = useState(0);
  const update = useUpdateFundraiserV1(fundraiser.id, setPercent);
  const afterSave = useAfterSave(fundraiser.id);
  const mounted = useMountedRef();
  const [uploading, onUploadingChange] = useUploadCounter();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const [notice, setNotice] = useState('');
  const names = fundraiser.tracksList.map((track) => ({ name: track.name }));
  const form = useZodForm(
    legacyFormSchema(fundraiser.hasTracksZip),
    {
      ...commonDefaults(fundraiser),
      trackList: names.length > 0 ? names : [{ name: '' }],
      albumZip: null,
    },
    { mode: 'onSubmit' },
  );
  const sending = update.isPending || form.formState.isSubmitting;

  return (
    <FormProvider {...form}>
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          const body = new FormData();
          body.append('name', values.name);
          body.append('description', values.description);
          body.append('genre', values.genre);
          body.append('genreSecondary', values.genreSecondary ?? '');
          body.append('youtubeLink', values.youtubeLink);
          body.append('vimeoLink', values.vimeoLink);
          body.append('charityEin', values.charityEin);
          body.append('donationMinimumCents', String(values.donationMinimumCents));
          body.append('fundraisingGoalCents', String(values.fundraisingGoalCents));
          body.append('albumCover', values.albumCover);
          body.append('previewTrackName', values.previewTrackName);
          body.append('previewTrackFile', values.previewTrackFile);
          body.append('trackList', JSON.stringify(values.trackList.map((track) => track.name)));
          if (values.albumZip) body.append('albumZip', values.albumZip);
          setPercent(0);
          setNotice('');
          try {
            await update.mutateAsync(body);
            await afterSave();
          } catch (error) {
            if (!mounted.current) return;
            // Stopped on purpose: nothing to explain beyond what did not happen.
            if (error instanceof UploadCancelled) {
              setNotice('Upload cancelled. Your changes have not been saved.');
              return;
            }
            setFailure(describeFailure(error, (formErrors) => putOnFields(form, formErrors)));
          }
        })}
      >
        <EditSections charityLocked={charityLocked}>
          <AlbumCoverField onUploadingChange={onUploadingChange} />
          <PreviewTrackFields onUploadingChange={onUploadingChange} />
          <TrackNames />
          <AlbumZipField required={!fundraiser.hasTracksZip} />
        </EditSections>
        <EditActions fundraiserId={fundraiser.id} uploading={uploading} sending={sending} />
        <p className="field-hint" role="status">
          {notice}
        </p>
      </form>
      <FormFailureDialog title="Unable to save changes" failure={failure} onClose={() => setFailure(null)} />
      <SlowSubmitOverlay
        active={sending}
        text="Updating your fundraiser..."
        percent={percent}
        // Once the whole body has gone the server is saving it: too late to take it back.
        onCancel={update.isPending && percent < 100 ? update.cancel : undefined}
      />
    </FormProvider>
  );
}

/** The legacy track list: names only, in album order (the audio is in the zip). */
function TrackNames() {
  const form = useFormContext<LegacyFormValues>();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'trackList' });
  const errors = form.formState.errors.trackList;
  const listError = errors?.message ?? errors?.root?.message;
  return (
    <fieldset className="form-group">
      <legend>Track names</legend>
      <p className="field-hint">In the order of the files in the album zip.</p>
      <ol className="track-names">
        {fields.map((item, index) => (
          <li key={item.id} className="track-name-row">
            <FormField
              label={`Track ${index + 1} name`}
              autoComplete="off"
              error={errors?.[index]?.name?.message}
              {...form.register(`trackList.${index}.name`)}
            />
            <button
              type="button"
              className="button button-ghost"
              aria-label={`Remove track ${index + 1}`}
              onClick={() => remove(index)}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <div aria-live="polite">{listError && <p className="field-error">{listError}</p>}</div>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={fields.length >= fundraiserLimits.tracksMax}
          onClick={() => append({ name: '' })}
        >
          + Add track
        </button>
      </div>
    </fieldset>
  );
}

function AlbumZipField({ required }: { required: boolean }) {
  const form = useFormContext<LegacyFormValues>();
  const {
    field: { ref, name, onBlur, onChange },
    fieldState,
  } = useController({ control: form.control, name: 'albumZip' });
  return (
    <FormField
      ref={ref}
      name={name}
      label="Album zip file"
      type="file"
      accept=".zip,application/zip"
      hint={`One .zip file with every track, less than ${UPLOAD_LIMITS_MB.zip} MB. ${required ? 'Required.' : 'Optional: leave empty to keep the current album zip.'}`}
      error={fieldState.error?.message}
      onBlur={onBlur}
      onChange={(event) => onChange(event.currentTarget.files?.[0] ?? null)}
    />
  );
}
