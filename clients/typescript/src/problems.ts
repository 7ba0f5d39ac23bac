// Errors as the server words them: every refusal is a problem document (RFC 9457) with a stable
// `code`; ProblemError carries it to code that prefers exceptions to openapi-fetch's `{ data, error }`.
import type { components } from "./schema.js";

export type Problem = components["schemas"]["Problem"];

export class ProblemError extends Error {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The problem document, when the answer carried one. */
  readonly problem: Problem | undefined;

  constructor(status: number, problem: Problem | undefined, what: string) {
    super(`${what}: ${status} ${problem ? `${problem.code}: ${problem.detail ?? problem.title}` : "no problem document"}`);
    this.name = "ProblemError";
    this.status = status;
    this.problem = problem;
  }

  /** The stable code (`not_your_turn`, `rate_limited`, …), or undefined without a problem document. */
  get code(): string | undefined {
    return this.problem?.code;
  }
}

/** What openapi-fetch answers: the data of a 2xx, or the error of any other status. */
export type Answer<D, E> =
  | { data: D; error?: never; response: Response }
  | { data?: never; error: E; response: Response };

function succeeded<D, E>(answer: Answer<D, E>): answer is { data: D; error?: never; response: Response } {
  return answer.response.ok;
}

function isProblem(value: unknown): value is Problem {
  return typeof value === "object" && value !== null && "code" in value && "status" in value &&
    typeof value.code === "string" && typeof value.status === "number";
}

/**
 * unwrap returns the data of a 2xx answer and throws a ProblemError for any other:
 * `const game = unwrap(await client.GET("/v1/games/{id}", { params: { path: { id } } }))`.
 */
export function unwrap<D, E>(answer: Answer<D, E>): D {
  if (succeeded(answer)) return answer.data;
  const { response } = answer;
  const problem = isProblem(answer.error) ? answer.error : undefined;
  throw new ProblemError(response.status, problem, `${response.url ? new URL(response.url).pathname : "request"}`);
}
