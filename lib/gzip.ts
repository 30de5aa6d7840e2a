/** Gzip for the bodies the site serves itself (static files, the API reference's bundle). */

/** `data` gzipped (CompressionStream: the same on Deno Deploy). */
export async function gzip(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Whether a request's Accept-Encoding takes gzip (`gzip;q=0` refuses it). */
export const acceptsGzip = (acceptEncoding: string | undefined) =>
  (acceptEncoding ?? "").split(",").some((part) => {
    const [coding, ...params] = part.split(";").map((x) => x.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    return (coding === "gzip" || coding === "*") && (q === undefined || Number(q.slice(2)) > 0);
  });
