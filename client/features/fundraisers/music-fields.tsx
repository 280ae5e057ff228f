import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { createContext, use, useMemo, useRef, useState } from 'react';
import { Controller, useFieldArray, useFormContext } from 'react-hook-form';
import type { z } from 'zod';
import { fundraiserLimits, UPLOAD_LIMITS_MB } from '../../../shared/constants';
import { messages } from '../../../shared/messages';
import { fundraiserMusicSchema } from '../../../shared/schemas/fundraisers';
import { fundraiserMessages } from '../../../shared/fundraiser-messages';
import { FileUpload } from '../../ui/file-upload';
import { FormField } from '../../ui/form-field';
import { ImageUpload } from '../../ui/image-upload';

// The music of a fundraiser (spec part 2 sections 2 and 5): album cover, preview track and the
// track list, reorderable by dragging (pointer, touch or keyboard, with dnd-kit) and removable.
// Shared by the wizard's last step and the edit page's streaming form.

export const musicFormSchema = fundraiserMusicSchema.omit({ id: true });
export type MusicFormValues = z.input<typeof musicFormSchema>;

export const emptyTrack = () => ({ name: '', file: '' });

/** Field names the server's formErrors may use here, track rows included ('trackList.0.name'). */
export function isMusicField(field: string): boolean {
  return (
    ['albumCover', 'previewTrackName', 'previewTrackFile', 'trackList'].includes(field) ||
    /^trackList\.\d+\.(name|file)$/.test(field)
  );
}

/**
 * Counts uploads in flight across every upload field of a form: the submit button stays disabled
 * while any is (spec part 2 section 4).
 */
export function useUploadCounter() {
  const [count, setCount] = useState(0);
  return [count > 0, (uploading: boolean) => setCount((current) => current + (uploading ? 1 : -1))] as const;
}

type UploadingProps = { onUploadingChange: (uploading: boolean) => void };

/** Upload id → the name of the file the user picked for it. */
export type FileNames = Record<string, string>;

type FileNamesContextValue = { names: FileNames; onNamed: (uploadId: string, fileName: string) => void };

/**
 * Names of files uploaded before this form was mounted (the wizard keeps them across its steps),
 * and where to report new ones. Without it a file field remembers its name only while mounted.
 */
const FileNamesContext = createContext<FileNamesContextValue | null>(null);

type MusicFieldsProps = UploadingProps & {
  /** Names of files uploaded earlier, shown instead of 'Current file'. */
  fileNames?: FileNames;
  /** Told each file's name once it is uploaded, to keep it with the form's values. */
  onFileNamed?: (uploadId: string, fileName: string) => void;
};

/** Album cover, preview track and track list: the wizard's last step and the streaming edit form. */
export function MusicFields({ onUploadingChange, fileNames, onFileNamed }: MusicFieldsProps) {
  const fileNamesValue = useMemo(
    () => ({ names: fileNames ?? {}, onNamed: onFileNamed ?? (() => undefined) }),
    [fileNames, onFileNamed],
  );
  return (
    <FileNamesContext value={fileNamesValue}>
      <AlbumCoverField onUploadingChange={onUploadingChange} />
      <PreviewTrackFields onUploadingChange={onUploadingChange} />
      <TrackList onUploadingChange={onUploadingChange} />
    </FileNamesContext>
  );
}

export function AlbumCoverField({ onUploadingChange }: UploadingProps) {
  const form = useFormContext<MusicFormValues>();
  return (
    <Controller
      control={form.control}
      name="albumCover"
      render={({ field, fieldState }) => (
        <ImageUpload
          label="Album cover"
          hint={`A JPEG or PNG image, less than ${UPLOAD_LIMITS_MB.image} MB. Square recommended.`}
          error={fieldState.error?.message}
          imageId={field.value || undefined}
          previewAlt="Album cover preview"
          onUploaded={field.onChange}
          onUploadingChange={onUploadingChange}
          buttonRef={field.ref}
        />
      )}
    />
  );
}

export function PreviewTrackFields({ onUploadingChange }: UploadingProps) {
  const form = useFormContext<MusicFormValues>();
  return (
    <fieldset className="form-group">
      <legend>Preview track</legend>
      <p className="field-hint">The track fans hear on your fundraiser's page before they donate.</p>
      <FormField
        label="Preview track name"
        autoComplete="off"
        hint={messages.maxHint(fundraiserLimits.trackName)}
        error={form.formState.errors.previewTrackName?.message}
        {...form.register('previewTrackName')}
      />
      <TrackFileField
        name="previewTrackFile"
        label="Preview track file"
        hint={`A .wav or .mp3 file, less than ${UPLOAD_LIMITS_MB.track} MB. Clip up to 1 minute recommended.`}
        onUploadingChange={onUploadingChange}
      />
    </fieldset>
  );
}

type TrackFileFieldProps = UploadingProps & {
  name: 'previewTrackFile' | `trackList.${number}.file`;
  label: string;
  hint?: string;
  compact?: boolean;
};

/** An uploaded audio file held as its upload id; shows the name of a file uploaded in this visit. */
function TrackFileField({ name, label, hint, compact, onUploadingChange }: TrackFileFieldProps) {
  const form = useFormContext<MusicFormValues>();
  const fileNames = use(FileNamesContext);
  const [fileName, setFileName] = useState<string>();
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <FileUpload
          compact={compact}
          label={label}
          hint={hint}
          error={fieldState.error?.message}
          // A file saved before this visit is known by its id only.
          currentFile={field.value ? (fileName ?? fileNames?.names[field.value] ?? 'Current file') : undefined}
          onUploaded={(uploadId, file) => {
            setFileName(file.name);
            fileNames?.onNamed(uploadId, file.name);
            field.onChange(uploadId);
          }}
          onUploadingChange={onUploadingChange}
          buttonRef={field.ref}
        />
      )}
    />
  );
}

const instructions =
  'To reorder a track, press Space or Enter on its handle, move it with the arrow keys, then press Space or ' +
  'Enter to drop it, or Escape to cancel.';

function TrackList({ onUploadingChange }: UploadingProps) {
  const form = useFormContext<MusicFormValues>();
  const { fields, append, remove, move } = useFieldArray({ control: form.control, name: 'trackList', keyName: 'key' });
  const addRef = useRef<HTMLButtonElement>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const errors = form.formState.errors.trackList;
  const listError = errors?.message ?? errors?.root?.message;
  const full = fields.length >= fundraiserLimits.tracksMax;

  const position = (key: UniqueIdentifier) => fields.findIndex((item) => item.key === key) + 1;
  const describe = (key: UniqueIdentifier) => {
    const name = form.getValues(`trackList.${position(key) - 1}.name`);
    return `Track ${position(key)}${name ? `, ${name}` : ''}`;
  };
  /**
   * The dragged track as it was named when picked up, whether it has left its place yet, and where
   * it was dropped: the list has already changed by the time the drop is announced.
   */
  const dragRef = useRef({ label: '', moved: false, droppedAt: 0 });

  // Spoken while a track is dragged, in words about tracks rather than dnd-kit's ids.
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${describe(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over && (over.id !== active.id || dragRef.current.moved)
        ? `${dragRef.current.label} is over position ${position(over.id)} of ${fields.length}.`
        : undefined,
    onDragEnd: ({ over }) =>
      over
        ? `${dragRef.current.label} dropped at position ${dragRef.current.droppedAt} of ${fields.length}.`
        : `${dragRef.current.label} dropped.`,
    onDragCancel: () => `Reordering cancelled. ${dragRef.current.label} stays where it was.`,
  };

  function handleDragStart({ active }: DragStartEvent) {
    dragRef.current = { label: describe(active.id), moved: false, droppedAt: position(active.id) };
  }

  function handleDragOver({ active, over }: DragOverEvent) {
    if (over && over.id !== active.id) dragRef.current.moved = true;
  }

  function handleDragEnd({ active, over }: DragEndEvent) {
    if (!over) return;
    dragRef.current.droppedAt = position(over.id);
    if (active.id !== over.id) move(position(active.id) - 1, position(over.id) - 1);
  }

  return (
    <fieldset className="form-group track-list">
      <legend>Tracks</legend>
      <p className="field-hint">
        From 1 to {fundraiserLimits.tracksMax} tracks, each a .wav or .mp3 file less than {UPLOAD_LIMITS_MB.track} MB.
        Drag a track by its handle to change the order.
      </p>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragStart={handleDragStart}
        onDragOver={handleDragOver}
        onDragEnd={handleDragEnd}
        accessibility={{ announcements, screenReaderInstructions: { draggable: instructions } }}
      >
        <SortableContext items={fields.map((item) => item.key)} strategy={verticalListSortingStrategy}>
          <ol className="track-rows">
            {fields.map((item, index) => (
              <TrackRow
                key={item.key}
                sortableId={item.key}
                index={index}
                onUploadingChange={onUploadingChange}
                onRemove={() => {
                  remove(index);
                  addRef.current?.focus();
                }}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      <div aria-live="polite">{listError && <p className="field-error">{listError}</p>}</div>
      <div className="actions">
        <button
          ref={addRef}
          type="button"
          className="button button-secondary"
          disabled={full}
          aria-describedby={full ? 'track-limit' : undefined}
          onClick={() => append(emptyTrack())}
        >
          + Add track
        </button>
        {full && (
          <p className="field-hint" id="track-limit">
            {fundraiserMessages.tooManyTracks}
          </p>
        )}
      </div>
    </fieldset>
  );
}

type TrackRowProps = UploadingProps & { sortableId: string; index: number; onRemove: () => void };

function TrackRow({ sortableId, index, onUploadingChange, onRemove }: TrackRowProps) {
  const form = useFormContext<MusicFormValues>();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: sortableId,
  });
  const errors = form.formState.errors.trackList?.[index];
  const number = index + 1;
  const name = form.watch(`trackList.${index}.name`);

  return (
    <li
      ref={setNodeRef}
      className={`track-row${isDragging ? ' track-row-dragging' : ''}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      <fieldset>
        <legend className="visually-hidden">Track {number}</legend>
        <div className="track-row-top">
          <button
            ref={setActivatorNodeRef}
            type="button"
            className="track-handle"
            {...attributes}
            {...listeners}
            aria-label={`Reorder track ${number}${name ? `, ${name}` : ''}`}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path
                fill="currentColor"
                d="M9 5a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0zm0 7a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0zm-1.5 8.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM18 5a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0zm-1.5 8.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM18 19a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0z"
              />
            </svg>
          </button>
          <span className="track-number" aria-hidden="true">
            {number}
          </span>
          <button
            type="button"
            className="button button-ghost track-remove"
            onClick={onRemove}
            aria-label={`Remove track ${number}${name ? `, ${name}` : ''}`}
          >
            Remove
          </button>
        </div>
        <div className="track-row-fields">
          <FormField
            label="Track name"
            autoComplete="off"
            error={errors?.name?.message}
            {...form.register(`trackList.${index}.name`)}
          />
          <TrackFileField
            compact
            name={`trackList.${index}.file`}
            label="Track file"
            onUploadingChange={onUploadingChange}
          />
        </div>
      </fieldset>
    </li>
  );
}
