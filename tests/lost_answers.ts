/**
 * A KV whose commits of the API's and the clock's changes land but answer that their check failed:
 * the answer lost and the call made again, the second try failing on the first's write, as Deno's
 * KV Connect client does while its server restarts. Changes are those of timers (changes,
 * creations, deletes) and of rundowns (changes, creations, deletes). Armed by setting `lose` (how
 * many answers to lose).
 */
import type { setup } from "./helpers.ts";

type World = Awaited<ReturnType<typeof setup>>;

export interface LostAnswerHooks {
  /** Runs after a commit whose answer is lost landed, before the refusal is answered. */
  meanwhile?: () => Promise<void>;
  /** Asked before every commit: a promise holds that commit back until it settles (and its answer is not lost). */
  hold?: () => Promise<void> | null;
  /** Runs once a timer-change call has answered. */
  answered?: () => void;
}

export function loseTimerChangeAnswers(s: World, hooks: LostAnswerHooks = {}): { lose: number } {
  const state = { lose: 0 };
  // How many store calls that change a timer or a rundown are under way (they may nest).
  let changing = 0;
  const atomic = s.kv.atomic.bind(s.kv);
  s.kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = async () => {
      const held = hooks.hold?.();
      if (held) {
        await held;
        return await commit();
      }
      const lost = changing > 0 && state.lose > 0;
      const r = await commit();
      if (!r.ok || !lost) return r;
      state.lose--;
      if (hooks.meanwhile) {
        const depth = changing;
        changing = 0;
        await hooks.meanwhile();
        changing = depth;
      }
      return { ok: false };
    };
    return op;
  };
  /** Counts the calls of `name` on `target` as changes (`answered`: tell the hook when each ends). */
  // deno-lint-ignore no-explicit-any
  const wrap = (target: any, name: string, answered = false) => {
    const original = target[name].bind(target);
    target[name] = async (...args: unknown[]) => {
      changing++;
      try {
        return await original(...args);
      } finally {
        changing--;
        if (answered) hooks.answered?.();
      }
    };
  };
  wrap(s.store.timers, "commitTimers", true);
  wrap(s.store.timers, "createTimer");
  wrap(s.store.timers, "deleteTimer");
  wrap(s.store.rundowns, "commitChange");
  wrap(s.store.rundowns, "commitWithNew");
  wrap(s.store.rundowns, "delete");
  return state;
}
