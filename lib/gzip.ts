/** Gzip for the bodies the site serves itself (static files, the API reference's bundle). */

/** `data` gzipped (CompressionStream: the same on Deno Deploy). */
export async function gzip(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Whether a request's Accept-Encoding takes gzip. */
export const acceptsGzip = (acceptEncoding: string | undefined) => /\bgzip\b/i.test(acceptEncoding ?? "");
