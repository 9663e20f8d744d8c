// A setting that cannot be read; main and the CLI print its message and stop.
export class ConfigError extends Error {}
