import { UPLOAD_LIMITS_MB } from '../../shared/constants';
import { UploadFrame, UploadProgressRow } from './upload-frame';
import { UploadedPicture } from './uploaded-picture';
import { uploadMessages } from '../../shared/schemas/uploads';
import { type UploadKind, useFileUpload } from './use-file-upload';
import { NetworkButton } from './needs-network';
import './image-upload.css';

// The image upload field (spec part 1 sections 4 and 5, issue 3): file picker or drag and drop,
// checks before sending, progress in percent, cancel. The behaviour lives in useFileUpload.

const imageKind: UploadKind = {
  endpoint: '/api/uploads/image',
  field: 'imageFile',
  types: ['image/jpeg', 'image/png'],
  namePattern: /\.(jpe?g|png)$/i,
  maxMb: UPLOAD_LIMITS_MB.image,
  wrongType: uploadMessages.wrongType.image,
  doneAnnouncement: 'Image uploaded',
};

type ImageUploadProps = {
  label: string;
  hint?: string;
  /** The form's error for this field (required, or the server's). */
  error?: string;
  /** The upload id shown as the current image, if any. */
  imageId?: string;
  /** Alt text of the preview. */
  previewAlt: string;
  onUploaded: (id: string) => void;
  onUploadingChange?: (uploading: boolean) => void;
  /** Receives the 'Choose an image' button, so a form can focus this field when it is invalid. */
  buttonRef?: (element: HTMLButtonElement | null) => void;
};

export function ImageUpload({
  label,
  hint,
  error,
  imageId,
  previewAlt,
  onUploaded,
  onUploadingChange,
  buttonRef,
}: ImageUploadProps) {
  const { progress, drag, chooseRef, chooseFile, cancelRef, cancel, ...frame } = useFileUpload({
    kind: imageKind,
    onUploaded: (uploadId) => onUploaded(uploadId),
    onUploadingChange,
    buttonRef,
  });

  return (
    <UploadFrame {...frame} drag={drag} className="image-upload" label={label} hint={hint} error={error}>
      {({ hintId, errorId }) => (
        <>
          <UploadedPicture
            className="image-upload-preview"
            uploadId={imageId}
            alt={imageId ? previewAlt : ''}
            sizes="96px"
            eager
            placeholder="image"
          />
          <div className="image-upload-body">
            {progress ? (
              <UploadProgressRow progress={progress} cancelRef={cancelRef} cancel={cancel} />
            ) : (
              <>
                {drag === 'invalid' ? (
                  <p className="upload-drag-error">{uploadMessages.invalidDrag}</p>
                ) : (
                  <p>
                    {drag === 'valid' ? 'Drop the image to upload it' : 'Drag and drop a JPEG or PNG image here, or'}
                  </p>
                )}
                <NetworkButton
                  action="upload files"
                  ref={chooseRef}
                  type="button"
                  className="button button-secondary"
                  aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
                  onClick={chooseFile}
                >
                  {imageId ? 'Choose another image' : 'Choose an image'}
                </NetworkButton>
              </>
            )}
          </div>
        </>
      )}
    </UploadFrame>
  );
}
