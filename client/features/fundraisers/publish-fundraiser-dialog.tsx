import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { type Fundraiser } from '../../../shared/answers/fundraisers';
import { artistKeys } from '../../api/artists';
import { fundraiserKeys } from '../../api/fundraisers';
import { apiRequest, errorMessage } from '../../api/http';
import { ApiError } from '../../api/errors';
import { trackEvent } from '../../lib/analytics';
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
import { fundraiserTitle } from '../../../shared/public-pages';
import { NetworkButton } from '../../ui/needs-network';
import { PublishButton } from './publish-button';

// Publishing a fundraiser (spec part 2 section 4, 'Publish dialog'; section 8 for the failure text).

const publishFailed = 'Something went wrong! Unable to publish.';

function usePublishFundraiser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, publishArtist }: { id: number; publishArtist: boolean }) =>
      apiRequest(`/api/fundraisers/${id}/publish`, 'fundraiser', { method: 'PATCH', json: { publishArtist } }),
    onSuccess: (fundraiser) => {
      // The page on screen shows the answer at once; everything else that lists either is refetched.
      queryClient.setQueryData(fundraiserKeys.bySlugOrId(String(fundraiser.id)), fundraiser);
      if (fundraiser.urlSlug) queryClient.setQueryData(fundraiserKeys.bySlugOrId(fundraiser.urlSlug), fundraiser);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: fundraiserKeys.all }),
        queryClient.invalidateQueries({ queryKey: artistKeys.all }),
      ]);
    },
  });
}

/** The server's own words for an API error (a refused publish explains why), else the spec's text. */
function publishErrorText(error: unknown): string {
  if (error instanceof ApiError && error.formErrors) return error.message;
  return errorMessage(error, publishFailed);
}

type PublishFundraiserDialogProps = {
  fundraiser: Fundraiser;
  open: boolean;
  onClose: () => void;
  onPublished?: (fundraiser: Fundraiser) => void;
};

/**
 * Two steps: confirm the fundraiser, then (only when its artist is a draft) confirm publishing the
 * artist too, since a published fundraiser of an unpublished artist would link to a missing page.
 */
export function PublishFundraiserDialog({ fundraiser, open, onClose, onPublished }: PublishFundraiserDialogProps) {
  const publish = usePublishFundraiser();
  const [step, setStep] = useState<'project' | 'artist'>('project');
  const { artist } = fundraiser;
  const artistIsDraft = artist.status === 'DRAFT';

  function reset() {
    setStep('project');
    publish.reset();
  }

  function close() {
    if (publish.isPending) return;
    reset();
    onClose();
  }

  function submit(publishArtist: boolean) {
    publish.mutate(
      { id: fundraiser.id, publishArtist },
      {
        onSuccess: (published) => {
          reset();
          onClose();
          void trackEvent('Publish');
          onPublished?.(published);
        },
      },
    );
  }

  const error = publish.isError && <Alert tone="error">{publishErrorText(publish.error)}</Alert>;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && close()}
      title={step === 'project' ? 'Publish this fundraiser?' : 'Publish the artist too?'}
      className="dialog-narrow"
    >
      {step === 'project' ? (
        <div className="dialog-body stack">
          <p>
            Once published, <strong>{fundraiserTitle(fundraiser)}</strong> becomes public: anyone can find it, and
            donations can start.
          </p>
          <p>
            The supported charity, <strong>{fundraiser.supportedOrg}</strong>, cannot be changed afterwards.
          </p>
          {artistIsDraft && <p className="muted">Step 1 of 2</p>}
          {error}
          <div className="dialog-actions">
            <button type="button" className="button button-ghost" onClick={close}>
              Cancel
            </button>
            {artistIsDraft ? (
              <button type="button" className="button button-primary" onClick={() => setStep('artist')}>
                Next
              </button>
            ) : (
              <NetworkButton
                action="publish"
                type="button"
                className="button button-primary"
                disabled={publish.isPending}
                onClick={() => submit(false)}
              >
                {publish.isPending ? 'Publishing...' : 'Yes, publish!'}
              </NetworkButton>
            )}
          </div>
        </div>
      ) : (
        <div className="dialog-body stack">
          {artist.isPublishable ? (
            <p>
              The artist <strong>{artist.name}</strong> is still a draft. Publishing this fundraiser publishes the
              artist too, so fans can open its page.
            </p>
          ) : (
            <p>
              The artist <strong>{artist.name}</strong> is still a draft and isn't finished yet. Please finish creating
              the artist first: an artist needs a name, a description and a profile image.
            </p>
          )}
          <p className="muted">Step 2 of 2</p>
          {error}
          <div className="dialog-actions">
            <button
              type="button"
              className="button button-ghost"
              disabled={publish.isPending}
              onClick={() => {
                publish.reset();
                setStep('project');
              }}
            >
              Back
            </button>
            {artist.isPublishable ? (
              <NetworkButton
                action="publish"
                type="button"
                className="button button-primary"
                disabled={publish.isPending}
                onClick={() => submit(true)}
              >
                {publish.isPending ? 'Publishing...' : 'Yes, publish both!'}
              </NetworkButton>
            ) : (
              <Link className="button button-primary" to={`/artists/user/${artist.id}/edit`}>
                Finish creating the artist
              </Link>
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}

/** The owner's (and admin's) publish control: the button and its dialog together. */
export function PublishControl({ fundraiser, className }: { fundraiser: Fundraiser; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <PublishButton fundraiser={fundraiser} className={className} onClick={() => setOpen(true)} />
      <PublishFundraiserDialog fundraiser={fundraiser} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
