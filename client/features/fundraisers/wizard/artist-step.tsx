import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { User } from '../../../../shared/answers/accounts';
import { linkValues } from '../../../../shared/artist-links';
import { createArtistSchema } from '../../../../shared/schemas/artists';
import { type Artist } from '../../../../shared/answers/artists';
import { trackEvent } from '../../../lib/analytics';
import { Alert } from '../../../ui/alert';
import { ARTIST_FIELDS, ArtistFields } from '../../../ui/artist-fields';
import { describeFailure, type FormFailure, FormFailureDialog } from '../../../ui/form-failure-dialog';
import { Spinner } from '../../../ui/spinner';
import { UploadedPicture } from '../../../ui/uploaded-picture';
import { applyServerFormErrors, useZodForm } from '../../../ui/use-zod-form';
import { userArtistsQueryOptions } from '../../../api/artists';
import { useCreateArtist } from '../fundraiser-form-api';
import { useSaveDraft, useSubmitOnce } from './use-save-draft';
import type { WizardData } from './wizard-store';
import { WIZARD_BASE } from './wizard-steps';
import { NetworkButton } from '../../../ui/needs-network';
import { LoadFailure } from '../../../ui/offline-notice';

/**
 * 'About you or your band' (spec part 2 section 2): pick one of the user's artists (one is chosen
 * for them when it is the only one; choosing the chosen one again deselects it), or create one in
 * place. With no artists yet the create form is all there is.
 */
export function ArtistStep({ user, data }: { user: User; data: WizardData }) {
  const navigate = useNavigate();
  const artists = useQuery(userArtistsQueryOptions);
  const saveDraft = useSaveDraft(user, data);
  const [creating, setCreating] = useState(false);
  /** undefined until the user picks: the stored or the only artist is chosen meanwhile. */
  const [selection, setSelection] = useState<number | null | undefined>(undefined);
  const [missing, setMissing] = useState(false);
  const [failure, setFailure] = useState<FormFailure | null>(null);
  // A ref as well as state: a second click must be refused before React re-renders the button.
  const savingRef = useRef(false);
  const [saving, setSaving] = useState(false);
  /**
   * The heading to focus once its part has replaced the other one in place: focus would otherwise
   * drop to the page with the button that was pressed.
   */
  const focusAfterSwap = useRef<'list' | 'form' | null>(null);
  const headingRef = (part: 'list' | 'form') => (node: HTMLHeadingElement | null) => {
    if (node && focusAfterSwap.current === part) {
      focusAfterSwap.current = null;
      node.focus();
    }
  };
  const switchTo = (part: 'list' | 'form') => {
    focusAfterSwap.current = part;
    setCreating(part === 'form');
  };

  if (artists.isPending) return <Spinner label="Loading your artists" />;
  if (artists.isError) {
    return (
      <LoadFailure error={artists.error} retry={artists.refetch}>
        <Alert tone="error">Oops, something went wrong!</Alert>
      </LoadFailure>
    );
  }

  const list = artists.data;
  const stored = list.some((artist) => artist.id === data.artistId) ? data.artistId : null;
  const selected = selection !== undefined ? selection : (stored ?? (list.length === 1 ? list[0]!.id : null));

  async function proceed(artistId: number) {
    if (savingRef.current) return;
    savingRef.current = true;
    setSaving(true);
    try {
      if (await saveDraft({ artistId })) await navigate(`${WIZARD_BASE}/charity`);
    } catch (error) {
      setFailure(describeFailure(error, (formErrors) => formErrors));
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  }

  /**
   * The new artist is one of the user's now: it is shown chosen in the list, so should saving the
   * draft fail, trying again (Next) saves with it instead of creating another artist.
   */
  async function created(artist: Artist) {
    setSelection(artist.id);
    switchTo('list');
    await proceed(artist.id);
  }

  const failureDialog = (
    <FormFailureDialog title="Unable to create fundraiser" failure={failure} onClose={() => setFailure(null)} />
  );

  if (list.length === 0 || creating) {
    return (
      <>
        {list.length > 0 && (
          <button type="button" className="link-button wizard-switch" onClick={() => switchTo('list')}>
            ← Choose existing artist
          </button>
        )}
        <h2 ref={headingRef('form')} tabIndex={-1}>
          Create a new artist
        </h2>
        <p className="muted">
          An artist profile is how fans find you. It stays a draft, visible only to you, until you publish it.
        </p>
        <InlineArtistForm onCreated={created} />
        {failureDialog}
      </>
    );
  }

  return (
    <>
      <h2 ref={headingRef('list')} tabIndex={-1} id="artist-choice-heading">
        Choose your artist
      </h2>
      <p className="muted">Which of your artists is this fundraiser by?</p>
      <ul className="artist-choices" aria-labelledby="artist-choice-heading">
        {list.map((artist) => (
          <li key={artist.id}>
            <button
              type="button"
              className="artist-choice"
              aria-pressed={selected === artist.id}
              onClick={() => {
                setMissing(false);
                setSelection(selected === artist.id ? null : artist.id);
              }}
            >
              <UploadedPicture className="artist-choice-image" uploadId={artist.profileImage} alt="" sizes="56px" />
              <span className="artist-choice-name">{artist.name}</span>
              {artist.status === 'DRAFT' && <span className="chip chip-warning">Draft</span>}
              <span className="artist-choice-check" aria-hidden="true">
                {selected === artist.id ? '✓' : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <p>
        Or{' '}
        <button type="button" className="link-button" onClick={() => switchTo('form')}>
          create a new artist
        </button>
      </p>
      <div aria-live="polite">{missing && <p className="field-error">Please choose an artist first.</p>}</div>
      <div className="wizard-actions">
        <NetworkButton
          action="continue"
          type="button"
          className="button button-primary"
          disabled={saving}
          onClick={() => (selected === null ? setMissing(true) : void proceed(selected))}
        >
          {saving ? 'Saving...' : 'Next'}
        </NetworkButton>
      </div>
      {failureDialog}
    </>
  );
}

/** The artist form of spec part 1, compact, for the wizard: creates the artist and moves on. */
function InlineArtistForm({ onCreated }: { onCreated: (artist: Artist) => Promise<void> }) {
  const create = useCreateArtist();
  const form = useZodForm(createArtistSchema, {
    name: '',
    description: '',
    website: '',
    profileImage: '',
    ...linkValues({}),
  });
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const once = useSubmitOnce();
  const { isSubmitting } = form.formState;

  return (
    <FormProvider {...form}>
      <form
        className="form"
        noValidate
        onSubmit={once(
          form.handleSubmit(async (input) => {
            let artist: Artist;
            try {
              artist = await create.mutateAsync(input);
            } catch (error) {
              setFailure(
                describeFailure(error, (formErrors) => applyServerFormErrors(form, formErrors, ARTIST_FIELDS)),
              );
              return;
            }
            // Spec part 1 section 4: artist creation is counted (sent in the background here).
            void trackEvent('Submit');
            await onCreated(artist);
          }),
        )}
      >
        <ArtistFields
          onUploadingChange={setUploading}
          nameLabel="Artist name"
          descriptionLabel="About the artist"
          descriptionRows={6}
        />
        <div className="wizard-actions">
          <NetworkButton
            action="create the artist"
            type="submit"
            className="button button-primary"
            disabled={uploading || isSubmitting}
          >
            {isSubmitting ? 'Creating artist...' : 'Create artist and continue'}
          </NetworkButton>
        </div>
      </form>
      <FormFailureDialog
        title="Unable to create artist"
        failure={failure}
        onClose={() => setFailure(null)}
        // Spec part 1 section 8: the artist form's own wording.
        otherText="Something went wrong! Please try again. If the issue persists, please contact us at"
      />
    </FormProvider>
  );
}
