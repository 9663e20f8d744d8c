// The shapes of the validator modules scripts/generate.ts writes into generated/ (ajv standalone code).

export interface ContractIssue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A compiled schema: true when the data is valid, otherwise `errors` says why. Coerces and fills defaults in place. */
export interface ContractValidateFunction {
  (data: unknown): boolean;
  errors?: ContractIssue[] | null;
}

export interface RequestBodyContract {
  /** The contract's `requestBody.required`, absent when the contract does not say. */
  readonly required: boolean | undefined;
  /** Media types in the contract's order; no validator where the body is binary or has no schema. */
  readonly contents: readonly { readonly type: string; readonly validate: ContractValidateFunction | null }[];
}

export interface RequestContract {
  /** Validates `{ query, headers, params }` (coercing strings to the parameters' types). */
  readonly parameters: ContractValidateFunction;
  readonly body: RequestBodyContract | null;
  /** Query parameters typed as arrays: one value is a list of one. */
  readonly arrayQuery: readonly string[];
  /** Query parameters Forgejo lower-cases before reading (`x-case-insensitive`). */
  readonly caseInsensitiveQuery: readonly string[];
}

/** Validators of `{ response: body }` by status, then media type; a status without content takes no body. */
export type ResponseContract = Record<string, Record<string, ContractValidateFunction>>;

export interface ContractRoute {
  /** Matches a whole path, case-insensitively; one group per parameter, in `keys` order. */
  readonly pattern: RegExp;
  readonly keys: readonly string[];
  /** The path's literal start, lower-cased: a cheap test before the pattern. */
  readonly prefix: string;
  /** Slashes in the path, a trailing one aside (the fewest, when a parameter takes the rest of the path). */
  readonly segments: number;
  /** A parameter takes the rest of the path, slashes included: the route matches paths of `segments` or more. */
  readonly restOfPath?: true;
  /** Operation ids by lower-case method. */
  readonly operations: Readonly<Record<string, string>>;
  /** The methods, upper-case, for a 405's Allow header. */
  readonly allow: string;
}
