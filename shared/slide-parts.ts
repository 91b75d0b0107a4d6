/**
 * How a slide's speaker notes are marked in a slide deck's page text: a level-2 heading with this text
 * opens them, and they run to the end of the slide's span. The core writes it (parse/slides.ts); the page
 * view reads it to show the notes apart from the slide's own words.
 */
export const NOTES_HEADING = 'Speaker notes';
