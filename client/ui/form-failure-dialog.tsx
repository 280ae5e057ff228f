import { serverMessages } from '../../shared/api';
import { apiErrorSchema, type FormErrorItem } from '../../shared/answers/api';
import { ApiError } from '../api/errors';
import { useSite } from '../lib/site';
import { MessageDialog } from './dialog';

// How a form explains a refused save (spec part 1 section 8 for artists, part 2 section 8 for
// fundraisers): a 400 with field errors puts them on their fields; a 400 with the server's own
// words shows them; anything else asks the user to try again and names the contact address.
// An upload the save named that is gone (FILE_NO_LONGER_AVAILABLE) is a field error too: each
// field the answer names asks for its file again.

export type FormFailure =
  { kind: 'fields'; unmatched: string[]; lead?: string } | { kind: 'text'; message: string } | { kind: 'other' };

/**
 * The fields a FILE_NO_LONGER_AVAILABLE answer names, as field errors carrying its code:
 * applyServerFormErrors (ui/use-zod-form.ts) empties those fields as well as marking them.
 */
function goneFiles(error: ApiError): FormErrorItem[] | null {
  if (error.code !== 'FILE_NO_LONGER_AVAILABLE') return null;
  const body = apiErrorSchema.safeParse(error.body);
  const fields = body.success ? (body.data.fields ?? (body.data.field ? [body.data.field] : [])) : [];
  return fields.map((field) => ({
    field,
    code: 'FILE_NO_LONGER_AVAILABLE',
    message: serverMessages.fileNoLongerAvailable,
  }));
}

/** `putOnFields` sets the field errors it can and returns those that match no field. */
export function describeFailure(
  error: unknown,
  putOnFields: (formErrors: FormErrorItem[]) => FormErrorItem[],
): FormFailure {
  if (error instanceof ApiError && error.status === 400) {
    if (error.formErrors) {
      return { kind: 'fields', unmatched: putOnFields(error.formErrors).map((item) => item.message) };
    }
    const gone = goneFiles(error);
    if (gone?.length) {
      // The answer's own message says which files (so none is left unsaid if a field is not on
      // this form); the fields say where to upload them again.
      putOnFields(gone);
      return { kind: 'fields', unmatched: [], lead: error.message };
    }
    if (error.text || error.code) return { kind: 'text', message: error.message };
  }
  return { kind: 'other' };
}

type FormFailureDialogProps = {
  title: string;
  failure: FormFailure | null;
  onClose: () => void;
  /** What the 'anything else' case says before the contact address (the artist forms word it their own way). */
  otherText?: string;
};

export function FormFailureDialog({
  title,
  failure,
  onClose,
  otherText = 'Please try submitting the form again. If the problem persists, please contact us at',
}: FormFailureDialogProps) {
  const { contactEmail } = useSite();
  return (
    <MessageDialog open={failure !== null} onClose={onClose} title={title}>
      {failure?.kind === 'fields' && (
        <>
          <p>{failure.lead ?? 'Please resolve the errors in the form and try again.'}</p>
          {failure.unmatched.length > 0 && (
            <ul>
              {failure.unmatched.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
        </>
      )}
      {failure?.kind === 'text' && <p>{failure.message}</p>}
      {failure?.kind === 'other' && (
        <p>
          {otherText} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
        </p>
      )}
    </MessageDialog>
  );
}
