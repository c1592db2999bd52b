import { useEffect, useState } from 'react';
import { isHttpUrl } from '@/api/core/http-url';

export type Orientation = 'landscape' | 'portrait' | 'square';

/** The orientation of the image at `url` once the browser has loaded it (undefined until then, or never). */
export function useImageOrientation(url: string): Orientation | undefined {
  const [measured, setMeasured] = useState<{ url: string; orientation: Orientation }>();
  useEffect(() => {
    if (!isHttpUrl(url)) return;
    const image = new Image();
    image.referrerPolicy = 'no-referrer';
    image.onload = () => {
      const { naturalWidth: w, naturalHeight: h } = image;
      setMeasured({ url, orientation: w > h ? 'landscape' : w < h ? 'portrait' : 'square' });
    };
    image.src = url;
    return () => {
      image.onload = null;
    };
  }, [url]);
  return measured?.url === url ? measured.orientation : undefined;
}
