// A response whose whole body the Node side already holds (the proxy reads the service's small JSON
// answers before passing them on) carries those bytes here, so a middleware that looks at the answer
// (the task recorder, server/tasks/record-traffic.ts) reads them without cloning the response: a
// clone tees the body into two web streams, which cost more than the rest of a status poll.
const held = new WeakMap<Response, Uint8Array>();

/** `response`, made from `bytes`, remembered with them. */
export function withAnswerBytes(response: Response, bytes: Uint8Array): Response {
  held.set(response, bytes);
  return response;
}

/** The body of `response` when it was made from bytes held in memory (withAnswerBytes). */
export function answerBytes(response: Response): Uint8Array | undefined {
  return held.get(response);
}
