/** A fixture knowledge base of pages cut inside code blocks, for the chat turn and end-to-end tests. */

/**
 * Pages that begin or end inside a code block, so that search cuts passages there (issue #12: asking
 * "safeParse vs parse" without Ollama lost the citations of the first passages).
 */
export const CODE_DOCS: Record<string, string> = {
  'parse.md': '  return User.parse(input); // safeParse vs parse\n}\n```\n\n'
    + 'safeParse vs parse: parse throws a ZodError.\n',
  'safe-parse.md': 'safeParse returns { success } and never throws, unlike parse.\n\n'
    + '```ts\nconst r = User.safeParse(input);\n',
  'issues.md': 'After safeParse, read `error.issues`; parse puts them in the ZodError it throws.\n',
  'coerce.md': 'z.coerce runs before parse and safeParse alike. ``` is how Markdown opens a fence.\n',
  'refine.md': '# Refinements\n\n'
    + 'refine checks run inside parse and safeParse; <b>async</b> ones need parseAsync [9].\n',
};
