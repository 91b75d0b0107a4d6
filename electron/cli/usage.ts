/** A mistake in how a command was typed: printed with a hint, exit code 2. */
export class UsageError extends Error {}
