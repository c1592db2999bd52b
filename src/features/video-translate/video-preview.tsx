import { useEffect, useState } from 'react';
import { isHttpUrl } from '@/api/core/http-url';

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/**
 * An inline player for the video URL, only for http(s) URLs (never `javascript:` or `data:`), and
 * only once typing pauses so the browser does not fetch every partial URL.
 */
export function VideoPreview({ url }: { url: string }) {
  const settled = useDebounced(url.trim(), 500);
  const [failed, setFailed] = useState<string>();
  if (!settled || !isHttpUrl(settled)) return null;
  const broken = failed === settled;
  return (
    <div
      className={`mt-3 overflow-hidden rounded-lg border ${broken ? 'border-amber-300 dark:border-amber-800' : 'border-zinc-200 bg-zinc-950 dark:border-zinc-800'}`}
    >
      <video
        key={settled}
        src={settled}
        controls
        preload="metadata"
        playsInline
        onError={() => setFailed(settled)}
        aria-label="Preview of the video to translate"
        // A player that cannot play only takes room: the note below says what is wrong.
        className={broken ? 'hidden' : 'aspect-video max-h-56 w-full bg-black object-contain'}
      />
      {broken && (
        <p className="bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          This browser cannot play this URL. The service downloads it itself, so it may still work, but check
          that the link is public and points to a video file.
        </p>
      )}
    </div>
  );
}
