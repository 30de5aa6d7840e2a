/** The one error type handlers throw; `app.onError` turns it into the error envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The error envelope of SPEC.md: `{ error: { code, message, field? } }`. */
export interface ErrorBody {
  error: { code: number; message: string; field?: string };
}

export function errorBody(status: number, message: string, field?: string): ErrorBody {
  return { error: field === undefined ? { code: status, message } : { code: status, message, field } };
}

export const notFound = (what = "timer") => new ApiError(404, `${what} not found or expired`);
