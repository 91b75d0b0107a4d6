/** A mistake in how a command was typed: printed with a hint, exit code 2. */
export class UsageError extends Error {}

/**
 * Node's parseArgs error as one line in the CLI's words (its own text names internals and breaks a quote). An
 * unknown option may be a query or a name that starts with "-": the message says to put it after `--`.
 */
export function argsErrorMessage(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const message = e.message ?? String(err);
  const option = /'(-[^']*?)(?: <value>)?'/.exec(message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    return `unknown option ${option}. See sift --help. A query or name that starts with "-" goes after --, `
      + `as in: sift search KB -- ${JSON.stringify(option)}`;
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return /argument missing/.test(message) ? `${option} needs a value. See sift --help.` : `${option} takes no value. See sift --help.`;
  }
  return `${message.replace(/\.$/, '')}. See sift --help.`;
}
