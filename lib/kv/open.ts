/** Opens Deno KV at the configured path, creating the folder of a local file. */
import type { Config } from "../../config.ts";

export async function openKv(config: Pick<Config, "kvPath">): Promise<Deno.Kv> {
  const path = config.kvPath;
  if (path && path !== ":memory:" && !/^https?:\/\//.test(path)) {
    const dir = path.replace(/[/\\][^/\\]*$/, "");
    if (dir && dir !== path) await Deno.mkdir(dir, { recursive: true });
  }
  return await Deno.openKv(path);
}
