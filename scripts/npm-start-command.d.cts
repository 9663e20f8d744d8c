// Types of npm-start-command.cjs, for the TypeScript that imports it (the bench, the code-cache test).
export interface NpmStartCommand {
  /** The variables set before `node` (VAR=value). */
  env: Record<string, string>;
  /** node's own options. */
  nodeArgs: string[];
  /** The script and its arguments. */
  args: string[];
}

export function npmStartCommand(): NpmStartCommand;
