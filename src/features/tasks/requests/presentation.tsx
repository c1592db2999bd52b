// A presentation of results for a meeting room: the whole window (full screen on request), one
// result at a time, large, on black; the arrow keys (and the buttons) move, Home/End jump, a video
// plays, Escape leaves. It takes a plain list of slides, so anything that holds results (a request
// today, a board later) can present them.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Slide {
  id: string;
  /** What the slide shows, read out and shown under it: the prompt or the video's name. */
  title: string;
  /** A second line: the language, the creator, the size. */
  detail?: string;
  image?: string;
  video?: string;
  poster?: string;
}

interface PresentationProps {
  /** What is presented, for the page's accessible name ("Presentation: …"). */
  name: string;
  slides: Slide[];
  onExit: () => void;
}

export function Presentation({ name, slides, onExit }: PresentationProps) {
  const [index, setIndex] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const count = slides.length;
  const go = useCallback((to: number) => setIndex(Math.max(0, Math.min(count - 1, to))), [count]);

  useEffect(() => {
    // Keys anywhere on the page while presenting; a focused video's own controls keep Space.
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const keys: Record<string, () => void> = {
        ArrowRight: () => go(index + 1),
        ArrowDown: () => go(index + 1),
        PageDown: () => go(index + 1),
        ArrowLeft: () => go(index - 1),
        ArrowUp: () => go(index - 1),
        PageUp: () => go(index - 1),
        Home: () => go(0),
        End: () => go(count - 1),
        Escape: () => {
          // The first Escape of a full-screen view is the browser's own (it leaves full screen).
          if (!document.fullscreenElement) onExit();
        },
      };
      const action = keys[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, index, count, onExit]);

  useEffect(() => {
    root.current?.focus();
  }, []);

  const slide = slides[index];
  const fullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void root.current?.requestFullscreen?.().catch(() => undefined);
  };
  const button =
    'rounded-full bg-white/10 px-3 py-1.5 text-sm font-medium text-white hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white disabled:opacity-30';

  return (
    <div
      ref={root}
      role="region"
      aria-label={`Presentation: ${name}`}
      aria-roledescription="presentation"
      tabIndex={-1}
      className="fixed inset-0 z-50 flex flex-col bg-black text-white outline-none"
    >
      <div className="flex items-center gap-2 px-3 py-2 sm:px-5">
        <p className="min-w-0 flex-1 truncate text-sm text-white/70">{name}</p>
        <p className="text-sm text-white/70 tabular-nums" aria-live="polite">
          {count === 0 ? 'Nothing to show' : `${index + 1} / ${count}`}
        </p>
        <button type="button" className={button} onClick={fullScreen}>
          Full screen
        </button>
        <button type="button" className={button} onClick={onExit}>
          Close
        </button>
      </div>
      <div className="relative flex min-h-0 flex-1 items-center justify-center px-2 sm:px-16">
        {slide ? (
          <figure
            key={slide.id}
            role="group"
            aria-roledescription="slide"
            aria-label={`${index + 1} of ${count}: ${slide.title}`}
            className="flex size-full min-h-0 flex-col items-center justify-center gap-3"
          >
            {slide.video ? (
              <video
                src={slide.video}
                poster={slide.poster}
                controls
                autoPlay
                muted
                loop
                playsInline
                aria-label={`Video: ${slide.title}`}
                className="min-h-0 max-w-full flex-1 object-contain"
              />
            ) : (
              <img src={slide.image} alt={slide.title} className="min-h-0 max-w-full flex-1 object-contain" />
            )}
            <figcaption className="max-w-3xl text-center">
              <span className="line-clamp-2 text-base font-medium sm:text-lg">{slide.title}</span>
              {slide.detail && <span className="block text-sm text-white/60">{slide.detail}</span>}
            </figcaption>
          </figure>
        ) : (
          <p className="text-white/70">No finished results to present yet.</p>
        )}
        <button
          type="button"
          aria-label="Previous"
          className={`${button} absolute top-1/2 left-1 -translate-y-1/2 sm:left-3`}
          disabled={index === 0}
          onClick={() => go(index - 1)}
        >
          ←
        </button>
        <button
          type="button"
          aria-label="Next"
          className={`${button} absolute top-1/2 right-1 -translate-y-1/2 sm:right-3`}
          disabled={index >= count - 1}
          onClick={() => go(index + 1)}
        >
          →
        </button>
      </div>
      <p className="hidden pb-2 text-center text-xs text-white/70 sm:block">← → to move · Esc to leave</p>
    </div>
  );
}
