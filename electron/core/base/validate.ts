/** Turning zod's validation errors into one readable line. */
import type { z } from 'zod';

/** `name: the name must not be empty; kb: expected string` — field path first, then the reason. */
export function formatZodError(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}
