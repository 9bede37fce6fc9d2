/** The documentation pages generated from code, by their path from the repository's root. */
import { errorsPage } from './errors-page.js';
import { eventTypesPage } from './event-types-page.js';

/** A generated page: where it is committed, and what it must hold. */
export interface GeneratedPage {
  path: string;
  text: string;
}

/** Every generated page, freshly rendered. */
export async function generatedPages(): Promise<GeneratedPage[]> {
  return [
    { path: 'docs/event-types.md', text: await eventTypesPage() },
    { path: 'docs/errors.md', text: errorsPage() },
  ];
}
