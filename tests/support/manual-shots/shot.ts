import type { Page } from 'playwright-core';

/**
 * A screenshot of a user guide (docs/manuals/shots/<name>.<lang>.jpg): the screen a demo user
 * sees at `path`, once `ready` shows, in each language, taken by tests/e2e/manuals.test.ts.
 */
export interface Shot {
  /** The name guides use: `![caption](shot:<name>)`. */
  name: string;
  /** The demo user signed in (its first profile, in `division` when given). */
  user: string;
  division?: string;
  /** The console path opened (the language is added). */
  path: string;
  /** A Playwright selector of what the screen shows once drawn with its data. */
  ready: string;
  /** On a phone instead of a desktop (1280 × 800). */
  phone?: boolean;
  /** What the user does before the picture (opening a record, a dialog…), waiting on what it shows. */
  act?: (page: Page) => Promise<void>;
}
