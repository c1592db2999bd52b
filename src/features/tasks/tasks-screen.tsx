// Placeholder until its issue lands: the route and the lazy chunk are real.
export function TasksScreen() {
  return <h1 className="text-2xl font-semibold tracking-tight">Tasks</h1>;
}
