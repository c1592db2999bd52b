import { useEffect, useState } from 'react';
import { translatedVideoName } from '@/api/core/rules';

const unixSeconds = () => Math.floor(Date.now() / 1000);

/** The names the translated videos will get (interface section 2.4), one per selected language. */
export function OutputNames({
  languages,
  name,
  id,
}: {
  languages: readonly string[];
  name: string;
  id: string;
}) {
  // Without a name the service stamps the submission time; the preview ticks so it reads as such.
  const [now, setNow] = useState(unixSeconds);
  useEffect(() => {
    if (name) return;
    const timer = setInterval(() => setNow(unixSeconds()), 1000);
    return () => clearInterval(timer);
  }, [name]);
  const shown = languages.length > 0 ? languages : ['English'];
  return (
    <div id={id} className="mt-2 rounded-lg bg-zinc-50 px-3 py-2 text-xs dark:bg-zinc-800/60">
      <p className="text-zinc-600 dark:text-zinc-400">
        {languages.length > 0 ? 'Output names:' : 'Output names (for example, with English):'}
      </p>
      <ul className="mt-1 space-y-0.5 font-mono break-all text-zinc-800 dark:text-zinc-200">
        {shown.slice(0, 4).map((language) => (
          <li key={language}>{translatedVideoName(language, name || undefined, now)}</li>
        ))}
        {shown.length > 4 && <li className="font-sans text-zinc-500">and {shown.length - 4} more</li>}
      </ul>
    </div>
  );
}
