// The frame every part of the People screen shares: a card with its heading (the region's name,
// for assistive technology and the tests), an optional line under it, and the part's refusal.
import type { ReactNode } from 'react';
import { cardClass, errorTextClass, hintClass } from '@/components/ui/styles';

// Written out whole, so Tailwind finds each class in the source.
const SPACING = { 2: 'space-y-2', 3: 'space-y-3', 4: 'space-y-4' } as const;

export function AdminSection({
  name,
  title,
  intro,
  anchor,
  spacing = 3,
  children,
}: {
  /** Names the heading's id (`<name>-heading`) the section is labelled by. */
  name: string;
  title: string;
  /** A line under the heading: what the part is for. */
  intro?: ReactNode;
  /** The section's own id, for links to it (`/people#api-tokens`). */
  anchor?: string;
  /** The space between its blocks: less for a few short lines, more around a form. */
  spacing?: keyof typeof SPACING;
  children: ReactNode;
}) {
  const heading = (
    <h2 id={`${name}-heading`} className="text-lg font-semibold">
      {title}
    </h2>
  );
  return (
    <section
      aria-labelledby={`${name}-heading`}
      id={anchor}
      className={`${cardClass} ${SPACING[spacing]} p-4 sm:p-6`}
    >
      {intro ? (
        <div className="space-y-1">
          {heading}
          <p className={hintClass}>{intro}</p>
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}

/** What the server refused or could not answer, in its words; nothing when all is well. */
export function SectionError({ message }: { message: string }) {
  return message ? (
    <p role="alert" className={errorTextClass}>
      {message}
    </p>
  ) : null;
}
