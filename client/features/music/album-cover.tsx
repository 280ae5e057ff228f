import './music.css';

type AlbumCoverProps = {
  /** The cover's URL (the library's `image`); without one a neutral placeholder is shown. */
  src: string | undefined;
  /** Empty when the album's name is printed next to it. */
  alt: string;
  className?: string;
  eager?: boolean;
};

/** A library album's cover in a square frame, cropped evenly whatever the upload's shape. */
export function AlbumCover({ src, alt, className, eager = false }: AlbumCoverProps) {
  const classes = `album-cover${className ? ` ${className}` : ''}`;
  if (!src) {
    return (
      <span
        className={`${classes} album-cover-placeholder`}
        {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
      >
        <svg viewBox="0 0 24 24" width="40" height="40" aria-hidden="true" focusable="false">
          <path fill="currentColor" d="M12 3v10.55A4 4 0 1 0 14 17V7h4V3h-6zm-2 16a2 2 0 1 1 0-4 2 2 0 0 1 0 4z" />
        </svg>
      </span>
    );
  }
  return (
    <span className={classes}>
      <img src={src} alt={alt} loading={eager ? 'eager' : 'lazy'} decoding="async" />
    </span>
  );
}
