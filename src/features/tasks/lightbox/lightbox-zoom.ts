// Zoom and pan for the lightbox's image: the wheel, + and − (buttons and keys, 0 to fit), a
// double-click (or double-tap) to zoom in at that point or back to fit, two fingers to pinch, and a
// drag to pan once zoomed. A CSS transform on the image, kept by hand: the lightbox is plain DOM,
// and the zoom libraries made for this are React components; this is about 1 KB (brotli) in the
// lightbox's own chunk, loaded with it on the first click on a result, importing nothing.

/** Fit (the whole image in view) is 1; past 8 times a result's pixels are only blur. */
export const ZOOM_MIN = 1;
export const ZOOM_MAX = 8;
/** One press of + or −. */
export const ZOOM_STEP = 1.5;
/** Where a double-click takes a fitted image. */
export const ZOOM_DOUBLE_CLICK = 2.5;

interface Point {
  x: number;
  y: number;
}

export interface ImageZoom {
  /** Takes the new image (the lightbox makes one per result), at fit. */
  attach(image: HTMLImageElement | undefined): void;
  /** Zooms by `factor` about the image's middle, or about `at` (a point on the screen). */
  zoomBy(factor: number, at?: Point): void;
  reset(): void;
  scale(): number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * The zoom of the image the lightbox shows. `changed` hears every new scale (the buttons' state and
 * the percentage follow it).
 */
export function imageZoom(changed: (scale: number) => void): ImageZoom {
  let image: HTMLImageElement | undefined;
  let scale = 1;
  let shift: Point = { x: 0, y: 0 };

  /** The image's middle on the screen when it is not moved: what the transform is about. */
  const middle = (): Point => {
    const box = image!.getBoundingClientRect();
    return { x: box.left + box.width / 2 - shift.x, y: box.top + box.height / 2 - shift.y };
  };

  /** How far it may move: no further than to put its edge at the edge of where it sat at fit. */
  const bound = (next: Point): Point => {
    const width = image!.offsetWidth;
    const height = image!.offsetHeight;
    const x = ((scale - 1) * width) / 2;
    const y = ((scale - 1) * height) / 2;
    return { x: clamp(next.x, -x, x), y: clamp(next.y, -y, y) };
  };

  const apply = () => {
    if (!image) return;
    shift = bound(shift);
    image.style.transform =
      scale === 1 ? '' : `translate(${shift.x}px, ${shift.y}px) scale(${Number(scale.toFixed(4))})`;
    image.style.cursor = scale > 1 ? 'grab' : 'zoom-in';
    image.dataset.zoomed = String(scale > 1);
    changed(scale);
  };

  const zoomTo = (next: number, at?: Point) => {
    if (!image) return;
    const target = clamp(next, ZOOM_MIN, ZOOM_MAX);
    if (target === scale) return;
    // The point under `at` stays under it: t' = p − (s'/s)(p − t), p and t from the middle.
    const centre = middle();
    const p = at ? { x: at.x - centre.x, y: at.y - centre.y } : { x: 0, y: 0 };
    const ratio = target / scale;
    shift = { x: p.x - ratio * (p.x - shift.x), y: p.y - ratio * (p.y - shift.y) };
    scale = target;
    if (scale === 1) shift = { x: 0, y: 0 };
    apply();
  };

  // Pointers down on the image: one pans, two pinch.
  const pointers = new Map<number, Point>();
  let pinch: { distance: number; scale: number } | undefined;
  const distance = () => {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a!.x - b!.x, a!.y - b!.y);
  };
  const midpoint = (): Point => {
    const [a, b] = [...pointers.values()];
    return { x: (a!.x + b!.x) / 2, y: (a!.y + b!.y) / 2 };
  };

  const onPointerDown = (event: PointerEvent) => {
    if (event.button > 0) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    image?.setPointerCapture?.(event.pointerId);
    if (pointers.size === 2) pinch = { distance: distance() || 1, scale };
    if (scale > 1 && image) image.style.cursor = 'grabbing';
  };
  const onPointerMove = (event: PointerEvent) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const now = { x: event.clientX, y: event.clientY };
    pointers.set(event.pointerId, now);
    if (pointers.size >= 2 && pinch) {
      zoomTo((pinch.scale * distance()) / pinch.distance, midpoint());
    } else if (scale > 1) {
      shift = { x: shift.x + now.x - last.x, y: shift.y + now.y - last.y };
      apply();
    }
  };
  const onPointerUp = (event: PointerEvent) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = undefined;
    if (image && scale > 1) image.style.cursor = 'grab';
  };
  const onWheel = (event: WheelEvent) => {
    // The page behind never scrolls; a trackpad's pinch comes as a wheel with Ctrl and small steps.
    event.preventDefault();
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
    const factor = Math.exp((-event.deltaY * unit * (event.ctrlKey ? 0.01 : 0.002)) as number);
    zoomTo(scale * factor, { x: event.clientX, y: event.clientY });
  };
  const onDoubleClick = (event: MouseEvent) => {
    if (scale > 1) zoomTo(1);
    else zoomTo(ZOOM_DOUBLE_CLICK, { x: event.clientX, y: event.clientY });
  };
  // The browser's own image drag (a ghost copy) would fight the pan.
  const onDragStart = (event: Event) => event.preventDefault();

  const listeners: [string, EventListener, AddEventListenerOptions?][] = [
    ['pointerdown', onPointerDown as EventListener],
    ['pointermove', onPointerMove as EventListener],
    ['pointerup', onPointerUp as EventListener],
    ['pointercancel', onPointerUp as EventListener],
    ['wheel', onWheel as EventListener, { passive: false }],
    ['dblclick', onDoubleClick as EventListener],
    ['dragstart', onDragStart],
  ];

  return {
    attach(next) {
      if (image) for (const [type, listener] of listeners) image.removeEventListener(type, listener);
      image = next;
      scale = 1;
      shift = { x: 0, y: 0 };
      pointers.clear();
      pinch = undefined;
      if (image) {
        // Touch gestures are the lightbox's, not the browser's page zoom or scroll.
        image.style.touchAction = 'none';
        image.style.transition = 'transform 60ms linear';
        for (const [type, listener, options] of listeners) image.addEventListener(type, listener, options);
      }
      apply();
      if (!image) changed(1);
    },
    zoomBy: (factor, at) => zoomTo(scale * factor, at),
    reset: () => zoomTo(1),
    scale: () => scale,
  };
}
