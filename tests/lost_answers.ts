/**
 * A KV whose timer-change (and creation) commits land but answer that their check failed: the answer lost and the
 * call made again, the second try failing on the first's write, as Deno's KV Connect client does
 * while its server restarts. Armed by setting `lose` (how many answers to lose).
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
  let changing = false;
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
      const lost = changing && state.lose > 0;
      const r = await commit();
      if (!r.ok || !lost) return r;
      state.lose--;
      if (hooks.meanwhile) {
        changing = false;
        await hooks.meanwhile();
        changing = true;
      }
      return { ok: false };
    };
    return op;
  };
  const timers = s.store.timers;
  const commitTimers = timers.commitTimers.bind(timers);
  timers.commitTimers = async (...args) => {
    changing = true;
    try {
      return await commitTimers(...args);
    } finally {
      changing = false;
      hooks.answered?.();
    }
  };
  const createTimer = timers.createTimer.bind(timers);
  timers.createTimer = async (...args) => {
    changing = true;
    try {
      return await createTimer(...args);
    } finally {
      changing = false;
    }
  };
  return state;
}
