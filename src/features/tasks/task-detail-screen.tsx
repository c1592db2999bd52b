// Placeholder until the gallery issue lands: the route and the lazy chunk are real.
export function TaskDetailScreen({ taskId }: { taskId: string }) {
  return <h1 className="text-2xl font-semibold tracking-tight">Task {taskId}</h1>;
}
