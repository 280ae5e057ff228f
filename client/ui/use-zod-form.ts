import { zodResolver } from '@hookform/resolvers/zod';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type PathValue,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import type { FormErrorItem } from '../../shared/answers/api';

/**
 * react-hook-form with the shared zod schema as resolver (STYLE.md rule 7). Fields are checked
 * once touched; a form whose rows are added on the fly (a track list) may check on submit instead,
 * so a new empty row is not flagged at once.
 */
export function useZodForm<TSchema extends z.ZodType<FieldValues, FieldValues>>(
  schema: TSchema,
  defaultValues?: DefaultValues<z.input<TSchema>>,
  { mode = 'onTouched' }: { mode?: 'onTouched' | 'onSubmit' } = {},
) {
  return useForm<z.input<TSchema>, unknown, z.output<TSchema>>({
    resolver: zodResolver(schema),
    defaultValues,
    mode,
  });
}

/**
 * Puts server formErrors on their fields (default text 'input is invalid'); returns the ones
 * that match no field so the caller can show them elsewhere. A field whose file is gone
 * (FILE_NO_LONGER_AVAILABLE) is emptied too: its upload id names nothing any more, and the
 * upload control then offers to choose a file again instead of showing one that is not there.
 */
export function applyServerFormErrors<T extends FieldValues>(
  form: UseFormReturn<T, unknown, FieldValues>,
  formErrors: FormErrorItem[],
  fields: readonly string[],
): FormErrorItem[] {
  const unmatched: FormErrorItem[] = [];
  for (const error of formErrors) {
    if (error.field && fields.includes(error.field)) {
      const field = error.field as Path<T>;
      if (error.code === 'FILE_NO_LONGER_AVAILABLE') form.setValue(field, '' as PathValue<T, Path<T>>);
      form.setError(field, { type: 'server', message: error.message || 'input is invalid' });
    } else {
      unmatched.push(error);
    }
  }
  return unmatched;
}
