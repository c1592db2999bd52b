// A browser whose clock runs `ms` ahead: Date, Date.now and new Date() all shifted, from the first
// script of every page of `target` on.
import type { BrowserContext, Page } from '@playwright/test';

export async function shiftClock(target: BrowserContext | Page, ms: number): Promise<void> {
  await target.addInitScript((shift) => {
    const RealDate = Date;
    class ShiftedDate extends RealDate {
      constructor(...args: ConstructorParameters<typeof Date> | []) {
        if (args.length === 0) super(RealDate.now() + shift);
        else super(...(args as ConstructorParameters<typeof Date>));
      }
      static now() {
        return RealDate.now() + shift;
      }
    }
    globalThis.Date = ShiftedDate as DateConstructor;
  }, ms);
}
