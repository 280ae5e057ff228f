import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useId, useRef, useState } from 'react';
import type { Fundraiser, FundraiserReach } from '../../../shared/answers/fundraisers';
import {
  DEFAULT_EMBED,
  EMBED_FRAME,
  EMBED_SIZES,
  EMBED_THEMES,
  type EmbedOptions,
  embedCode,
  embedTitle,
  embedUrl,
} from '../../../shared/embed';
import { fundraiserKeys, recordShare } from '../../api/fundraisers';
import { useSite } from '../../lib/site';
import { Dialog } from '../../ui/dialog';
import { fundraiserPath, fundraiserTitle } from '../../../shared/public-pages';
import { copyFrom, useCopyOutcome } from './copy-text';
import './share-dialog.css';

// The Share dialog (issue 28; DESIGN.md wave 3, "shares"): the link to copy or hand to the phone's
// share sheet, and the embeddable player's code with a live preview. Each completed share is
// counted by the server (at most once per visitor and fundraiser an hour).

const sizeLabels = {
  compact: { label: 'Compact', hint: 'One row' },
  full: { label: 'Full', hint: 'With the track list' },
} satisfies Record<EmbedOptions['size'], { label: string; hint: string }>;

const themeLabels = { light: 'Light', dark: 'Dark' } satisfies Record<EmbedOptions['theme'], string>;

/**
 * Tells the server a share was completed. A counter must never bother the sharer: a failure is
 * let go. The count it answers goes into what is cached, so the owner's figures agree at once.
 */
function useCountShare(fundraiserId: number) {
  const queryClient = useQueryClient();
  return () => {
    recordShare(fundraiserId).then(
      ({ shareCount }) => {
        queryClient.setQueriesData<Fundraiser>({ queryKey: fundraiserKeys.details() }, (data) =>
          data?.id === fundraiserId ? { ...data, shareCount } : data,
        );
        queryClient.setQueryData<FundraiserReach>(fundraiserKeys.reach(fundraiserId), (reach) =>
          reach ? { ...reach, shareCount } : reach,
        );
      },
      () => undefined,
    );
  };
}

type ShareDialogProps = {
  fundraiser: Fundraiser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened it, where the focus goes back on closing. */
  trigger: RefObject<HTMLElement | null>;
};

export function ShareDialog({ fundraiser, open, onOpenChange, trigger }: ShareDialogProps) {
  const title = fundraiserTitle(fundraiser);
  const countShare = useCountShare(fundraiser.id);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Share ${title}`}
      className="share-dialog"
      onCloseAutoFocus={(event) => {
        // The Share button is not a Radix Trigger (it is drawn before this part loads), so Radix
        // would leave the focus on the page's body.
        event.preventDefault();
        trigger.current?.focus();
      }}
    >
      <div className="dialog-body share-body">
        <LinkSection fundraiser={fundraiser} onShared={countShare} />
        <EmbedSection fundraiser={fundraiser} onShared={countShare} />
      </div>
    </Dialog>
  );
}

type SectionProps = { fundraiser: Fundraiser; onShared: () => void };

function LinkSection({ fundraiser, onShared }: SectionProps) {
  const fieldId = useId();
  const fieldRef = useRef<HTMLInputElement>(null);
  const [outcome, setOutcome] = useCopyOutcome();
  const title = fundraiserTitle(fundraiser);
  const link = `${window.location.origin}${fundraiserPath(fundraiser)}`;
  // The Web Share API opens the phone's own share sheet (messages, mail, social apps); desktop
  // browsers mostly lack it, and copying the link is all they need.
  const canShareNatively = typeof navigator.share === 'function';

  async function copyLink() {
    const copied = await copyFrom(fieldRef.current, link);
    setOutcome(copied ? 'copied' : 'select');
    if (copied) onShared();
  }

  async function shareNatively() {
    try {
      await navigator.share({
        title,
        text: `Listen to ${title} by ${fundraiser.artist.name} and give to ${fundraiser.supportedOrg}.`,
        url: link,
      });
    } catch (error) {
      // AbortError: the user closed the share sheet. Nothing was shared, so nothing is said or counted.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      setOutcome('share-failed');
      return;
    }
    setOutcome('idle');
    onShared();
  }

  return (
    <div className="share-section">
      <div className="field">
        <label htmlFor={fieldId}>Link to this fundraiser</label>
        <div className="share-row">
          <input
            ref={fieldRef}
            id={fieldId}
            className="share-link"
            type="text"
            readOnly
            value={link}
            onFocus={(event) => event.currentTarget.select()}
          />
          <button type="button" className="button button-primary" onClick={() => void copyLink()}>
            Copy link
          </button>
          {canShareNatively && (
            <button type="button" className="button button-secondary" onClick={() => void shareNatively()}>
              Share…
            </button>
          )}
        </div>
        <p className="share-status" role="status">
          {outcome === 'copied'
            ? 'Link copied'
            : outcome === 'select'
              ? 'Press Ctrl+C (or ⌘C) to copy the selected link.'
              : outcome === 'share-failed'
                ? 'Sharing did not work on this device. Copy the link instead.'
                : ''}
        </p>
      </div>
    </div>
  );
}

function EmbedSection({ fundraiser, onShared }: SectionProps) {
  const headingId = useId();
  const codeId = useId();
  const codeRef = useRef<HTMLTextAreaElement>(null);
  const [options, setOptions] = useState<EmbedOptions>(DEFAULT_EMBED);
  const [outcome, setOutcome] = useCopyOutcome();
  const title = fundraiserTitle(fundraiser);
  const origin = window.location.origin;
  // The embed page's address is the slug's; a published fundraiser has one.
  const slug = fundraiser.urlSlug ?? String(fundraiser.id);
  const src = embedUrl(origin, slug, options);
  const code = embedCode(origin, slug, embedTitle(fundraiser, useSite().siteName), options);

  async function copyCode() {
    const copied = await copyFrom(codeRef.current, code);
    setOutcome(copied ? 'copied' : 'select');
    if (copied) onShared();
  }

  return (
    <section className="share-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Embed the player</h3>
      <p className="field-hint">
        Put the player on your own website, blog or newsletter: paste this code where the page accepts HTML.
      </p>
      <div className="share-options">
        <RadioGroup
          legend="Size"
          choices={EMBED_SIZES.map((size) => ({ value: size, ...sizeLabels[size] }))}
          value={options.size}
          onChange={(size) => setOptions((current) => ({ ...current, size }))}
        />
        <RadioGroup
          legend="Theme"
          choices={EMBED_THEMES.map((theme) => ({ value: theme, label: themeLabels[theme] }))}
          value={options.theme}
          onChange={(theme) => setOptions((current) => ({ ...current, theme }))}
        />
      </div>
      <figure className="share-preview">
        <figcaption>Preview</figcaption>
        {/* A new frame for each choice: changing a frame's src would add to the page's history, and
            Back would then step through the previews instead of leaving the page. Sized by its
            attributes (the page's CSP refuses style attributes); CSS narrows it on a phone. */}
        <iframe
          key={src}
          src={src}
          title={`Preview of the player for ${title}`}
          width={EMBED_FRAME.width}
          height={EMBED_FRAME.height[options.size]}
          allow="autoplay"
        />
      </figure>
      <div className="field">
        <label htmlFor={codeId}>Embed code</label>
        <textarea
          ref={codeRef}
          id={codeId}
          className="share-code"
          readOnly
          rows={5}
          spellCheck={false}
          value={code}
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
      <div className="share-row">
        <button type="button" className="button button-primary" onClick={() => void copyCode()}>
          Copy embed code
        </button>
        <p className="share-status" role="status">
          {outcome === 'copied'
            ? 'Embed code copied'
            : outcome === 'select'
              ? 'Press Ctrl+C (or ⌘C) to copy the selected code.'
              : ''}
        </p>
      </div>
    </section>
  );
}

type Choice<T extends string> = { value: T; label: string; hint?: string };

/** Native radio buttons in a fieldset: arrow keys move between them, the legend names the group. */
function RadioGroup<T extends string>({
  legend,
  choices,
  value,
  onChange,
}: {
  legend: string;
  choices: Choice<T>[];
  value: T;
  onChange: (value: T) => void;
}) {
  const name = useId();
  return (
    <fieldset className="share-choices">
      <legend>{legend}</legend>
      <div className="share-choice-list">
        {choices.map((choice) => (
          <label key={choice.value} className="share-choice">
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={choice.value === value}
              onChange={() => onChange(choice.value)}
            />
            <span className="share-choice-text">
              {choice.label}
              {choice.hint && <span className="share-choice-hint">{choice.hint}</span>}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
