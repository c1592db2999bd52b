// One way to scan a page with axe in every spec.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * An axe scan of the page, run in the page itself (legacy mode). The default mode opens a blank page
 * per scan to merge the results of the page's frames, about a second of a busy machine's CPU each
 * time; the console has no frames, so both modes report the same.
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode();
}

type Violations = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'];

/** Each violation as its rule, impact and help, then the nodes it names: readable in a failed assertion. */
export function describeViolations(violations: Violations): string[] {
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
}

/** Scans the page, or only what `include` selects, and fails with the violations described. */
export async function expectNoAxeViolations(
  page: Page,
  options: { include?: string; message?: string } = {},
): Promise<void> {
  const builder = axe(page);
  if (options.include) builder.include(options.include);
  const { violations } = await builder.analyze();
  expect(describeViolations(violations), options.message).toEqual([]);
}
