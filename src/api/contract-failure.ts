// A request or response the contract refuses. The error middleware answers it (src/http/error-middleware.ts):
// 404/405/415 as they are, 400 as Forgejo's 422 `[field]: message`, 500 for a response that breaks the contract.
import type { ContractIssue } from './contract-types.ts';

export interface FailureIssue {
  /** Where, as a JSON pointer into `{ query, headers, params, body }` or `{ response }`. */
  path: string;
  message: string;
}

export class ContractFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FailureIssue[] = [{ path: '', message }],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** An enum's message names the allowed values, as Forgejo clients have always read it. */
function issueMessage(issue: ContractIssue): string | undefined {
  const allowed = issue.keyword === 'enum' ? (issue.params.allowedValues as unknown[] | undefined) : undefined;
  return allowed ? `${issue.message}: ${allowed.join(', ')}` : issue.message;
}

/** The field an issue is about: the missing or extra property itself, else the value that failed. */
function issuePath(issue: ContractIssue): string {
  const named = issue.params.missingProperty ?? issue.params.additionalProperty ?? issue.params.unevaluatedProperty;
  return named !== undefined ? `${issue.instancePath}/${String(named)}` : issue.instancePath;
}

export function failureFromIssues(status: number, issues: ContractIssue[], dataName: string): ContractFailure {
  const errors = issues.map((issue) => ({ path: issuePath(issue), message: issueMessage(issue) ?? 'invalid' }));
  const message = errors.map((error) => `${dataName}${error.path} ${error.message}`).join(', ');
  return new ContractFailure(status, message, errors);
}
