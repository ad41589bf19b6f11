/**
 * Reading and rewriting bundles member by member, for tests that damage them.
 *
 * @module
 */
import { createReadStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { readTar, TAR_END, tarHeader, tarPadding } from "../../src/local/tar.ts";

/** The members of the bundle at `file`, in order. */
export async function members(file: string): Promise<[string, Uint8Array][]> {
  const out: [string, Uint8Array][] = [];
  for await (const e of readTar(createReadStream(file) as AsyncIterable<Uint8Array>)) {
    const chunks: number[] = [];
    for await (const c of e.body) chunks.push(...c);
    out.push([e.name, new Uint8Array(chunks)]);
  }
  return out;
}

/** Rewrites the bundle at `file` with the members `change` returns. */
export async function rewrite(
  file: string,
  change: (m: [string, Uint8Array][]) => [string, Uint8Array][],
): Promise<void> {
  const pieces: Uint8Array[] = [];
  for (const [name, body] of change(await members(file))) {
    pieces.push(tarHeader(name, body.length, 0), body, tarPadding(body.length));
  }
  pieces.push(TAR_END);
  await writeFile(file, new Uint8Array(pieces.flatMap((p) => [...p])));
}
