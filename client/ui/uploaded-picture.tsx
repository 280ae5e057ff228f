import { imageSrcSet, imageUrl } from '../../shared/constants';
import { iconPaths } from '../../shared/icon-paths';
import './uploaded-picture.css';

type UploadedPictureProps = {
  /** The upload id the renditions derive from; without one a neutral placeholder is shown. */
  uploadId: string | undefined;
  /** Empty when the picture only decorates a name printed next to it. */
  alt: string;
  /** How wide the picture is drawn, so the browser fetches the smallest rendition that is sharp enough. */
  sizes: string;
  className?: string;
  /** Above the fold: fetch at once rather than lazily. */
  eager?: boolean;
  /** The page's leading picture (its largest paint): fetched first, before other images. */
  priority?: boolean;
  /** What the placeholder shows: a music note for an album, a picture for an image field. */
  placeholder?: PlaceholderIcon;
};

/** An uploaded image as WebP with a JPEG fallback, in the sizes the server renders (issue 3). */
export function UploadedPicture({
  uploadId,
  alt,
  sizes,
  className,
  eager = false,
  priority = false,
  placeholder = 'music',
}: UploadedPictureProps) {
  const classes = `uploaded-picture${className ? ` ${className}` : ''}`;
  if (!uploadId) {
    return <PicturePlaceholder className={`${classes} uploaded-picture-placeholder`} alt={alt} icon={placeholder} />;
  }
  return (
    <picture className={classes}>
      <source type="image/webp" srcSet={imageSrcSet(uploadId, 'webp')} sizes={sizes} />
      <img
        src={imageUrl(uploadId, 400, 'jpg')}
        srcSet={imageSrcSet(uploadId, 'jpg')}
        sizes={sizes}
        alt={alt}
        loading={eager || priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : undefined}
        decoding="async"
      />
    </picture>
  );
}

type PlaceholderIcon = 'music' | 'image';

/** Where a picture would be, named by `alt` unless it only decorates a printed name. */
export function PicturePlaceholder({
  className,
  alt,
  icon = 'music',
}: {
  className: string;
  alt: string;
  icon?: PlaceholderIcon;
}) {
  return (
    <span
      className={className}
      data-placeholder={icon}
      {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
    >
      <svg viewBox="0 0 24 24" width="40" height="40" aria-hidden="true" focusable="false">
        <path fill="currentColor" d={iconPaths[icon]} />
      </svg>
    </span>
  );
}
