/**
 * A stream of bytes read up to a limit: an HTTP answer's body (http.ts) and a zip entry as it
 * inflates (zip_entries.ts) are read so, and stopped as soon as they pass the limit, before
 * more of a hostile answer or a zip bomb is held.
 */

/** Every byte of `reader` in one array, or the size reached when it passed `limit` (the
 * stream is then cancelled). */
export async function readUpTo(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | number> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return size;
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}
