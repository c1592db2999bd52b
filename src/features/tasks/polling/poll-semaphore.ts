// The in-flight cap every status request goes through, shared by the poller and the Settings panel
// (which changes its limit). Its own module so Settings does not load the poller.
import { storedConcurrency } from './poll-settings';
import { createSemaphore } from './semaphore';

export const pollSemaphore = createSemaphore(storedConcurrency());
