/** Sift's version, from package.json (bundled in, so it is right in every host). */
import pkg from '../../../package.json' with { type: 'json' };

/** The version in package.json, e.g. `0.1.0`. */
export const VERSION: string = pkg.version;
