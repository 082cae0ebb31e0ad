/** Kept in step with package.json by the release; printed by `cortex --version`. */
export const VERSION = '0.1.0';
