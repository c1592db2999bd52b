// Placeholder until its issue lands: the route and the lazy chunk are real.
export function CallbacksScreen() {
  return <h1 className="text-2xl font-semibold tracking-tight">Callbacks</h1>;
}
