/** A host page for embedding tests, on another origin than the app (localhost, where the app is 127.0.0.1). */

/** Serves whatever HTML it is given. */
export function hostSite() {
  let html = "";
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  return {
    url: `http://localhost:${server.addr.port}/`,
    set(body: string) {
      html = body;
    },
    close: () => server.shutdown(),
  };
}
