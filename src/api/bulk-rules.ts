// The limits of the Tasks screen's bulk actions, shared by the server (which enforces them) and the
// browser (which says them before asking).

/** "Select all matching" selects at most this many tasks; hiding takes as many at once. */
export const BULK_IDS_MAX = 1000;
/** One zip holds the files of at most this many tasks (a translation's result and captions are two). */
export const ZIP_TASKS_MAX = 200;
/** One bulk re-run creates at most this many tasks again: each one spends credits. */
export const RERUN_MAX = 50;
/** The longest name the browser may give a zip (the view's: "Failed tasks, 2026-11-28"). */
export const ZIP_NAME_MAX = 120;
