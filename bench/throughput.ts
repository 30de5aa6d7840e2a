/**
 * 1. API throughput: GET /api/v1/timers/:id and POST /api/v1/timers (countdown) on the default
 * configuration (request logs on, read by this process through a pipe), each as a ratio to its
 * floor measured in the same run (a bare Deno.serve doing one kv.get / one kv.atomic() commit on
 * a KV file), and to a bare hello-world Deno.serve. The load comes from `wrk` (an external
 * generator: a `fetch` client in Deno saturates before the server does); without wrk, from the
 * fetch client in harness.ts. Subject and floor run back to back in interleaved rounds, the
 * ratio is the median of per-round ratios, and each round notes the load average (2 shared cores).
 */
import {
  Api,
  BENCH_PLANS,
  compare,
  type ContenderResult,
  dist,
  log,
  pairedRatio,
  type Proc,
  type Req,
  round,
  seedAccount,
  spawn,
  startServer,
  tempKv,
} from "./harness.ts";
import { compareWrk, findWrk, loadavg } from "./wrk.ts";
import { profileServer } from "./profile.ts";
import type { Mode, Result } from "./result.ts";

const CONCURRENCY = 32;
const POST_BODY = JSON.stringify({ type: "countdown", duration: 60, title: "bench" });

/**
 * In-process look at POST /api/v1/timers: the real app on a KV file, its kv.atomic() commits
 * counted and timed, at concurrency 1 and CONCURRENCY with one account, and at CONCURRENCY
 * with one account per request loop (no shared per-account key).
 */
async function diagnosePost(n: number): Promise<Record<string, unknown>> {
  const { createApp } = await import("../app.ts");
  const { loadConfig } = await import("../config.ts");
  const { Store } = await import("../lib/kv/store.ts");
  const { createAccount } = await import("../lib/accounts/accounts.ts");
  const out: Record<string, unknown> = {};
  for (
    const [label, conc, accounts] of [["c1_1acct", 1, 1], [`c${CONCURRENCY}_1acct`, CONCURRENCY, 1], [
      `c${CONCURRENCY}_${CONCURRENCY}accts`,
      CONCURRENCY,
      CONCURRENCY,
    ]] as const
  ) {
    const tmp = await tempKv("diag-post");
    const kv = await Deno.openKv(tmp.path);
    try {
      const store = new Store(kv, { useQueue: true });
      const keys: string[] = [];
      for (let i = 0; i < accounts; i++) {
        keys.push((await createAccount(store, { plan: "enterprise", name: "d" })).apiKey);
      }
      const config = loadConfig({
        KV_PATH: tmp.path,
        LOG_REQUESTS: "0",
        PLANS: BENCH_PLANS,
        WEBHOOK_ALLOW_PRIVATE: "1",
      });
      const app = createApp({ store, config });
      let commits = 0, failed = 0;
      const commitMs: number[] = [];
      const atomic = kv.atomic.bind(kv);
      kv.atomic = () => {
        const op = atomic();
        const commit = op.commit.bind(op);
        op.commit = async () => {
          const t = performance.now();
          const r = await commit();
          commitMs.push(performance.now() - t);
          commits++;
          if (!r.ok) failed++;
          return r;
        };
        return op;
      };
      let next = 0;
      const t0 = performance.now();
      await Promise.all(Array.from({ length: conc }, async (_, w) => {
        const headers = { authorization: `Bearer ${keys[w % keys.length]}`, "content-type": "application/json" };
        while (next++ < n) {
          const r = await app.app.request("http://bench/api/v1/timers", { method: "POST", headers, body: POST_BODY });
          await r.arrayBuffer();
        }
      }));
      const secs = (performance.now() - t0) / 1000;
      const d = dist(commitMs);
      out[label] = {
        posts_per_s: round(n / secs, 1),
        commits_per_post: round(commits / n, 2),
        failed_checks_per_post: round(failed / n, 2),
        commit_ms_p50: d.p50,
        commit_ms_p99: d.p99,
      };
      await app.scheduler.stop();
      await app.limiter.stop();
      await app.requestLog.stop();
    } finally {
      kv.close();
      await tmp.cleanup();
    }
  }
  return out;
}

function raw(r: ContenderResult) {
  return {
    server_cpu_ms_per_req: r.server_cpu_ms_per_req,
    client_cpu_ms_per_req: r.client_cpu_ms_per_req,
    rps_median: r.rps_median,
    rps_rounds: r.rps_rounds,
    requests: r.requests,
    errors: r.errors,
    statuses: r.statuses,
    ...(r.first_error ? { first_error: r.first_error } : {}),
  };
}

export async function throughput(mode: Mode): Promise<Result[]> {
  // Many short interleaved rounds: the ratio is the median of per-round ratios.
  const rounds = mode.quick ? 4 : 6;
  const seconds = mode.quick ? 1 : 1.5;
  const warmupSeconds = mode.quick ? 0.5 : 1;
  const cfg = { rounds, seconds, warmupSeconds, concurrency: CONCURRENCY };

  const appKv = await tempKv("tp-app");
  const getKv = await tempKv("tp-get");
  const postKv = await tempKv("tp-post");
  const { apiKey } = await seedAccount(appKv.path);
  const procs: Proc[] = [];
  try {
    // The default configuration: request logs on (this process reads them through a pipe).
    const app = await startServer("app", appKv.path, { LOG_REQUESTS: "1" });
    procs.push(app);
    const floorGet = await spawn("floor-get", "bench/floor_get.ts", { KV_PATH: getKv.path, RECORDS: "50" });
    procs.push(floorGet);
    const floorPost = await spawn("floor-post", "bench/floor_post.ts", { KV_PATH: postKv.path });
    procs.push(floorPost);
    const hello = await spawn("floor-hello", "bench/floor_hello.ts", {});
    procs.push(hello);

    const api = new Api(app.base, apiKey);
    const appIds: string[] = [];
    for (let i = 0; i < 50; i++) {
      appIds.push((await api.create({ type: "countdown", duration: 3600, title: `bench ${i}` })).timer_id as string);
    }
    api.close();
    const floorIds: string[] = await (await fetch(`${floorGet.base}/ids`)).json();
    const auth = { authorization: `Bearer ${apiKey}` };

    const wrkBin = await findWrk();
    const generator = wrkBin ? "wrk" : "fetch (wrk not found)";
    const getReqs = {
      app: appIds.map((id): Req => ({ url: `${app.base}/api/v1/timers/${id}`, headers: auth })),
      floor: floorIds.map((id): Req => ({ url: `${floorGet.base}/t/${id}` })),
      hello: [{ url: `${hello.base}/` }],
    };
    const postHeaders = { ...auth, "content-type": "application/json" };
    const postReqs = {
      app: [{ url: `${app.base}/api/v1/timers`, method: "POST", headers: postHeaders, body: POST_BODY }],
      floor: [{ url: `${floorPost.base}/t`, method: "POST", headers: postHeaders, body: POST_BODY }],
    };
    const procOf: Record<string, Proc> = { app, floor: floorGet, hello };
    const measure = async (reqs: Record<string, Req[]>, procs: Record<string, Proc>) => {
      if (wrkBin) {
        const r = await compareWrk(
          wrkBin,
          Object.entries(reqs).map(([name, requests]) => ({ name, proc: procs[name], requests })),
          { rounds, seconds, warmupSeconds, connections: CONCURRENCY },
        );
        return r;
      }
      const loads = [loadavg()];
      const r = await compare(
        Object.entries(reqs).map(([name, list]) => ({
          name,
          proc: procs[name],
          request: (i: number) => list[i % list.length],
        })),
        cfg,
      );
      loads.push(loadavg());
      return { results: r, loadavg: loads };
    };

    log(
      `throughput: GET (app vs kv.get floor vs hello), ${rounds}×${seconds}s at ${CONCURRENCY} connections, ${generator}`,
    );
    const { results: get, loadavg: getLoad } = await measure(getReqs, procOf);
    log(`throughput: POST (app vs kv.atomic floor), ${generator}`);
    const { results: post, loadavg: postLoad } = await measure(postReqs, { app, floor: floorPost });

    const getRatio = pairedRatio(get.app, get.floor);
    const postRatio = pairedRatio(post.app, post.floor);
    const results: Result[] = [
      {
        name: "api_get_rps_vs_kv_get_floor",
        value: getRatio,
        unit: "ratio",
        target: "≥ 0.60 (request logs on), no errors",
        met: getRatio >= 0.6 && get.app.errors === 0,
        generator,
        loadavg_per_round: getLoad,
        app: raw(get.app),
        floor: raw(get.floor),
        hello: raw(get.hello),
        server_cpu_ratio: round(get.floor.server_cpu_ms_per_req / get.app.server_cpu_ms_per_req, 3),
        concurrency: CONCURRENCY,
        rounds,
        seconds_per_round: seconds,
      },
      {
        name: "api_post_rps_vs_kv_commit_floor",
        value: postRatio,
        unit: "ratio",
        target: "≥ 0.60 (request logs on), no errors",
        met: postRatio >= 0.6 && post.app.errors === 0,
        generator,
        loadavg_per_round: postLoad,
        app: raw(post.app),
        floor: raw(post.floor),
        server_cpu_ratio: round(post.floor.server_cpu_ms_per_req / post.app.server_cpu_ms_per_req, 3),
        concurrency: CONCURRENCY,
        rounds,
        seconds_per_round: seconds,
      },
      {
        name: "api_get_rps_vs_hello",
        value: pairedRatio(get.app, get.hello),
        unit: "ratio",
        target: "report",
        met: null,
        app_rps: get.app.rps_median,
        hello_rps: get.hello.rps_median,
      },
      {
        name: "api_post_rps_vs_hello",
        value: round(post.app.rps_median / get.hello.rps_median, 3),
        note: "POST and hello were not measured in the same rounds: ratio of medians",
        unit: "ratio",
        target: "report",
        met: null,
        app_rps: post.app.rps_median,
        hello_rps: get.hello.rps_median,
      },
    ];
    // Under CPU contention (neighbours, or the load generator) both sides converge on what the
    // client can send and the throughput ratio drifts towards 1: say so when CPU cost disagrees.
    for (const res of results.slice(0, 2)) {
      const cpu = res.server_cpu_ratio as number;
      if (Math.abs(cpu - (res.value as number)) > 0.15) {
        res.note =
          `server CPU per request ratio (floor/app) is ${cpu}, throughput ratio ${res.value}: the machine or the load generator limited one side; read both`;
      }
    }
    // Where a target is missed: profile the server on the same request.
    for (const [res, label] of [[results[0], "get"], [results[1], "post"]] as const) {
      if (res.met) continue;
      if (res.name.includes("post") ? post.app.errors : get.app.errors) {
        res.note = `${res.note ? res.note + "; " : ""}errors: ${
          JSON.stringify((label === "post" ? post : get).app.statuses)
        }`;
      }
      log(`throughput: ${label} target missed, profiling the server`);
      const prof = await profileServer(label, async (base, key) => {
        const a = new Api(base, key);
        const ids: string[] = [];
        for (let i = 0; i < 50; i++) {
          ids.push((await a.create({ type: "countdown", duration: 3600 })).timer_id as string);
        }
        a.close();
        const h = { authorization: `Bearer ${key}`, "content-type": "application/json" };
        return label === "get"
          ? (i: number): Req => ({ url: `${base}/api/v1/timers/${ids[i % 50]}`, headers: h })
          : (): Req => ({ url: `${base}/api/v1/timers`, method: "POST", headers: h, body: POST_BODY });
      }, { seconds: mode.quick ? 1.5 : 4, concurrency: CONCURRENCY, dir: mode.profileDir });
      res.profile = prof.file;
      res.hotspots = prof.hotspots;
      if (label === "post") {
        try {
          const diag = await diagnosePost(mode.quick ? 150 : 400);
          res.in_process_commits = diag;
          const one = diag[`c${CONCURRENCY}_1acct`] as Record<string, number>;
          const many = diag[`c${CONCURRENCY}_${CONCURRENCY}accts`] as Record<string, number>;
          const c1 = diag.c1_1acct as Record<string, number>;
          res.note = `${
            res.note ? res.note + "; " : ""
          }in-process POST at concurrency ${CONCURRENCY} on one account: ${one.commits_per_post} kv commits per created timer (${one.failed_checks_per_post} failed checks), ${one.posts_per_s}/s; at concurrency 1: ${c1.commits_per_post} commits, ${c1.posts_per_s}/s; ${CONCURRENCY} accounts at concurrency ${CONCURRENCY}: ${many.commits_per_post} commits, ${many.posts_per_s}/s`;
        } catch (e) {
          res.note = `${res.note ? res.note + "; " : ""}in-process diagnosis failed: ${String(e).slice(0, 200)}`;
        }
      }
    }
    return results;
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await Promise.all([appKv.cleanup(), getKv.cleanup(), postKv.cleanup()]);
  }
}
