import { cardClass } from '@/components/ui/styles';

/** The shape of a creation form while its code loads, so the page does not jump when it arrives. */
export function FormSkeleton({ label }: { label: string }) {
  return (
    <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div role="status" className={`${cardClass} space-y-6 p-4 sm:p-6`}>
        <span className="sr-only">{label}</span>
        {[8, 3, 4, 6].map((height, index) => (
          <div key={index} aria-hidden="true" className="space-y-2">
            <div className="h-3.5 w-28 animate-pulse rounded bg-zinc-200 motion-reduce:animate-none dark:bg-zinc-800" />
            <div
              style={{ height: `${height * 0.5}rem` }}
              className="animate-pulse rounded-lg bg-zinc-100 motion-reduce:animate-none dark:bg-zinc-800/60"
            />
          </div>
        ))}
      </div>
      <div
        aria-hidden="true"
        className={`${cardClass} hidden h-72 animate-pulse motion-reduce:animate-none lg:block`}
      />
    </div>
  );
}
