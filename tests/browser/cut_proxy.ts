/**
 * A TCP proxy on 127.0.0.1 in front of the app, whose connections a test can cut at once: a
 * live stream that drops as a network does (the browser's offline emulation leaves an open
 * stream alone).
 */
export function cutProxy(target: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  let refusing = false;
  const pipe = (from: Deno.Conn, to: Deno.Conn) =>
    from.readable.pipeTo(to.writable).catch(() => {}).finally(() => {
      for (const c of [from, to]) {
        try {
          c.close();
        } catch { /* closed */ }
        open.delete(c);
      }
    });
  const pumps: Promise<void>[] = [];
  const accepting = (async () => {
    for await (const client of listener) {
      if (refusing) {
        client.close();
        continue;
      }
      try {
        const server = await Deno.connect({ hostname: "127.0.0.1", port: target });
        open.add(client).add(server);
        pumps.push(pipe(client, server), pipe(server, client));
      } catch {
        client.close();
      }
    }
  })();
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    /** Cuts every connection and refuses new ones while `refuse` holds. */
    cut(refuse = true) {
      refusing = refuse;
      for (const c of open) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      open.clear();
    },
    restore() {
      refusing = false;
    },
    async close() {
      this.cut();
      listener.close();
      await accepting.catch(() => {});
      await Promise.allSettled(pumps);
    },
  };
}
