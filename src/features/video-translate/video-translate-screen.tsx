// Placeholder until its issue lands: the route and the lazy chunk are real.
export function VideoTranslateScreen() {
  return <h1 className="text-2xl font-semibold tracking-tight">Translate video</h1>;
}
