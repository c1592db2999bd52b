// A react-hook-form resolver whose zod schema loads on first use. The form renders, counts
// characters and shows every limit from plain values (src/api/core/rules.ts); zod and the resolver
// arrive when the creator starts working with the form (`preload`) or at the latest when it first
// validates, so they are not part of what the first screen fetches.
import type { zodResolver as ZodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';

type ZodSchema = Parameters<typeof ZodResolver>[0];

interface LazyResolver<TInput extends FieldValues, TOutput> extends Resolver<TInput, unknown, TOutput> {
  /** Starts loading now (on the form's first focus or press), so the first check is instant. */
  preload(): void;
}

export function lazyZodResolver<TInput extends FieldValues, TOutput>(
  loadSchema: () => Promise<ZodSchema>,
): LazyResolver<TInput, TOutput> {
  let loaded: Promise<Resolver<TInput, unknown, TOutput>> | undefined;
  const load = () =>
    (loaded ??= Promise.all([loadSchema(), import('@hookform/resolvers/zod')]).then(
      ([schema, { zodResolver }]) => zodResolver(schema) as unknown as Resolver<TInput, unknown, TOutput>,
    ));
  const resolver = (async (values, context, options) =>
    (await load())(values, context, options)) as LazyResolver<TInput, TOutput>;
  resolver.preload = () => void load();
  return resolver;
}
