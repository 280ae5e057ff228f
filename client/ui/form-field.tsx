import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  forwardRef,
  useId,
} from 'react';

type FieldText = { label: string; hint?: string; error?: string };
type ControlProps = { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };

/** The frame every field shares: a label, then the control, its hint and its error, wired together. */
function FieldFrame({
  label,
  hint,
  error,
  id,
  className,
  children,
}: FieldText & {
  id: string | undefined;
  className: string | undefined;
  children: (control: ControlProps) => ReactNode;
}) {
  const autoId = useId();
  const controlId = id ?? autoId;
  return (
    <div className={`field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={controlId}>{label}</label>
      {children({
        id: controlId,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': noteIds(controlId, hint, error).describedBy,
      })}
      <FieldNotes hint={hint} error={error} controlId={controlId} />
    </div>
  );
}

/** The ids a control's hint and error get, and the aria-describedby that names them. */
function noteIds(controlId: string, hint: string | undefined, error: string | undefined) {
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  return { hintId, errorId, describedBy: [hintId, errorId].filter(Boolean).join(' ') || undefined };
}

/** A field's hint and error under its control, with the ids its aria-describedby names. */
function FieldNotes({ hint, error, controlId }: { hint?: string; error?: string; controlId: string }) {
  const { hintId, errorId } = noteIds(controlId, hint, error);
  return (
    <>
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </>
  );
}

/** A labelled input with its hint and error wired to it for screen readers. */
export const FormField = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement> & FieldText>(
  function FormField({ label, hint, error, id, className, ...inputProps }, ref) {
    return (
      <FieldFrame label={label} hint={hint} error={error} id={id} className={className}>
        {(control) => <input ref={ref} {...control} {...inputProps} />}
      </FieldFrame>
    );
  },
);

/** The same for a textarea. */
export const TextareaField = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement> & FieldText>(
  function TextareaField({ label, hint, error, id, className, ...textareaProps }, ref) {
    return (
      <FieldFrame label={label} hint={hint} error={error} id={id} className={className}>
        {(control) => <textarea ref={ref} {...control} {...textareaProps} />}
      </FieldFrame>
    );
  },
);

/** The same for a select; its options are the children. */
export const SelectField = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement> & FieldText>(
  function SelectField({ label, hint, error, id, className, children, ...selectProps }, ref) {
    return (
      <FieldFrame label={label} hint={hint} error={error} id={id} className={className}>
        {(control) => (
          <select ref={ref} {...control} {...selectProps}>
            {children}
          </select>
        )}
      </FieldFrame>
    );
  },
);

/**
 * A checkbox with its label beside it (the whole label is the tap target, 48 px high at least),
 * and a hint or error below, wired for screen readers like the fields above.
 */
export const CheckboxField = forwardRef<
  HTMLInputElement,
  Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & Omit<FieldText, 'label'> & { label: ReactNode }
>(function CheckboxField({ label, hint, error, id, className, ...inputProps }, ref) {
  const autoId = useId();
  const controlId = id ?? autoId;
  return (
    <div className={`check-field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={controlId}>
        <input
          ref={ref}
          id={controlId}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={noteIds(controlId, hint, error).describedBy}
          {...inputProps}
        />
        <span>{label}</span>
      </label>
      <FieldNotes hint={hint} error={error} controlId={controlId} />
    </div>
  );
});
