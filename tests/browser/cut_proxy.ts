/**
 * A TCP proxy on 127.0.0.1 in front of the app, whose connections a test can cut or freeze: a
 * live stream that drops as a network does (Chromium's offline emulation leaves an open stream
 * alone), or goes silent without any error (a connection that died while a laptop slept).
 */
export function cutProxy(target: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  let refusing = false;
  /** While held, nothing is passed on either way (the bytes wait); resolved when thawed. */
  let frozen: PromiseWithResolvers<void> | null = null;
  const close = (c: Deno.Conn) => {
    try {
      c.close();
    } catch { /* closed */ }
    open.delete(c);
  };
  const pump = async (from: Deno.Conn, to: Deno.Conn) => {
    const writer = to.writable.getWriter();
    try {
      for await (const chunk of from.readable) {
        while (frozen) await frozen.promise;
        await writer.write(chunk);
      }
    } catch { /* cut */ }
    close(from);
    close(to);
  };
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
        pumps.push(pump(client, server), pump(server, client));
      } catch {
        client.close();
      }
    }
  })();
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    /** Cuts every connection, and refuses new ones while `refuse` holds. */
    cut(refuse = true) {
      refusing = refuse;
      for (const c of [...open]) close(c);
    },
    /** Stops passing bytes on every connection, open or new, without closing any. */
    freeze() {
      frozen ??= Promise.withResolvers<void>();
    },
    restore() {
      refusing = false;
      const f = frozen;
      frozen = null;
      f?.resolve();
    },
    async close() {
      this.restore();
      this.cut();
      listener.close();
      await accepting.catch(() => {});
      await Promise.allSettled(pumps);
    },
  };
}
