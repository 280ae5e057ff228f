import { PicturePlaceholder } from '../../ui/uploaded-picture';
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
  if (!src) return <PicturePlaceholder className={`${classes} album-cover-placeholder`} alt={alt} />;
  return (
    <span className={classes}>
      <img src={src} alt={alt} loading={eager ? 'eager' : 'lazy'} decoding="async" />
    </span>
  );
}
