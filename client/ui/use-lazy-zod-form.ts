import { useMemo } from 'react';
import { type DefaultValues, type FieldValues, type Resolver, useForm } from 'react-hook-form';
import type { z } from 'zod';

type SchemaResolver<TSchema extends z.ZodType<FieldValues, FieldValues>> = Resolver<
  z.input<TSchema>,
  unknown,
  z.output<TSchema>
>;

/**
 * useZodForm (use-zod-form.ts) for a form drawn before zod has loaded (the donate page, issue 24:
 * zod was a fifth of what it loaded first). The schema and its resolver load with the form's first
 * check, or before it once the donor acts on the page (the caller queues `loadSchema` with
 * loadInIdleTurns); the form then checks exactly as useZodForm's does. `loadSchema` should be
 * stable (useCallback), or each render would start over.
 */
export function useLazyZodForm<TSchema extends z.ZodType<FieldValues, FieldValues>>(
  loadSchema: () => Promise<TSchema>,
  defaultValues?: DefaultValues<z.input<TSchema>>,
) {
  const resolver = useMemo(() => {
    let loading: Promise<SchemaResolver<TSchema>> | undefined;
    const resolve: SchemaResolver<TSchema> = async (values, context, options) => {
      loading ??= Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(
        ([{ zodResolver }, schema]) => zodResolver(schema) as unknown as SchemaResolver<TSchema>,
        (error: unknown) => {
          loading = undefined; // a chunk that did not load (a deploy, the network): the next check tries again
          throw error;
        },
      );
      return (await loading)(values, context, options);
    };
    return resolve;
  }, [loadSchema]);
  return useForm<z.input<TSchema>, unknown, z.output<TSchema>>({ resolver, defaultValues, mode: 'onTouched' });
}
