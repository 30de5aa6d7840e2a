/** How the API answers a refused rundown write: the plan's limits, a revoked key, a conflict. */
import { unauthorized } from "../accounts/auth.ts";
import { ApiError } from "../errors.ts";
import type { Account, RundownWriteOutcome } from "../kv/store.ts";

/** The answer when an account holds as many rundowns as its plan allows. */
export function rundownCap(account: Account, limit: number | null): ApiError {
  return new ApiError(
    403,
    `your ${account.plan} plan holds at most ${limit} rundowns (as many as it stores timers); ` +
      "delete one or upgrade the plan",
  );
}

/** Answers a rundown write's outcome: nothing when it landed, else the error (`created`: new timers it held). */
export function answer(outcome: RundownWriteOutcome, account: Account, limit: number | null, created = 0): void {
  if (outcome === "ok") return;
  if (outcome === "rundowns") throw rundownCap(account, limit);
  if (outcome === "timers") {
    throw new ApiError(
      403,
      `your ${account.plan} plan stores at most ${limit} timers; the rundown would create ${created} ` +
        "more than it has room for: delete some or upgrade the plan",
    );
  }
  if (outcome === "key gone") throw unauthorized("invalid or revoked API key");
  if (outcome === "conflict") throw new RundownConflict();
  throw new Error("a rundown written in steps was too large still");
}

/** Something the write was decided on changed meanwhile (read again, decide again). */
export class RundownConflict extends ApiError {
  constructor() {
    super(409, "the rundown or one of its timers changed meanwhile; read it again and retry", "items");
  }
}
