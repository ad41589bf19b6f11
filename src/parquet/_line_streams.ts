/**
 * Streams of lines built by DuckDB (see `_line_sql.ts`), written by DuckDB's
 * own CSV writer into files of the read engine's scratch folder, one
 * statement at a time, and sent from there: each query's lines go to a file
 * of their own (`COPY (SELECT line ...) TO ...`, no quoting, the line's own
 * end as the writer's), read as the file grows and removed once sent.
 *
 * Why files: DuckDB writes a million lines to a file about as fast as its
 * `COPY` writes the records, where handing them to JavaScript, one string
 * per line or joined into blocks by `string_agg`, cost it twice that
 * (docs/benchmarks.md, "downloads"). A file holds one query's lines only, so
 * the disk a stream takes is two queries' worth.
 *
 * @module
 */
import type { DuckDBValue } from "@duckdb/node-api";
import { Buffer } from "node:buffer";
import { type FileHandle, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { relay } from "../http/mod.ts";
import { type ReadEngine, type Session, sqlString } from "./_duckdb.ts";
import { runOne } from "./_statement.ts";

/** The text around and between the lines of a stream. */
export interface LineFraming {
  /** Before everything (a CSV header, `[`). */
  head: string;
  /** Between two lines (and after every line for {@linkcode LineFraming.terminated}). */
  join: string;
  /** Whether every line is followed by `join` (CSV, JSON lines) or only lines before another (a JSON array). */
  terminated: boolean;
  /** Before the first line, when there is one (a JSON array's newline). */
  first: string;
  /** After everything. */
  tail: string;
}

/** One query of a line stream: a SELECT of one column, each record's line, in order; and its parameters. */
export interface LineQuery {
  /** The SELECT. */
  select: string;
  /** Its parameters. */
  params: DuckDBValue[];
}

/** Bytes read from a file at a time. */
const STEP = 1024 * 1024;

const encoder = new TextEncoder();
const NOTHING: Uint8Array<ArrayBuffer> = new Uint8Array(0);

/** `join` as the CSV writer's `NEW_LINE` option spells it. */
function newLine(join: string): string {
  return sqlString(join.replaceAll("\\", "\\\\").replaceAll("\r", "\\r").replaceAll("\n", "\\n"));
}

/**
 * The statement that writes `query`'s lines, each followed by `framing`'s
 * `join`, to the file `target`, as they are (no header, no quoting).
 *
 * @example
 * ```ts
 * import { copySql } from "./_line_streams.ts";
 * const framing = { head: "", join: "\n", terminated: true, first: "", tail: "" };
 * copySql("SELECT 'a' AS line", "/tmp/x", framing); // "COPY (SELECT 'a' AS line) TO '/tmp/x' (...)"
 * ```
 */
export function copySql(select: string, target: string, framing: LineFraming): string {
  return `COPY (${select}) TO ${sqlString(target)} ` +
    `(FORMAT csv, HEADER false, QUOTE '', ESCAPE '', DELIMITER chr(1), NEW_LINE ${newLine(framing.join)})`;
}

/** A file of lines that a query writes, read as it grows. */
interface Growing {
  path: string;
  /** Resolves once the query is done (rejects with its error). */
  done: Promise<void>;
  finished: boolean;
  /** Open once the query has made the file. */
  handle: FileHandle | null;
  /** Bytes of it sent. */
  at: number;
}

/** How long a stream that has sent every byte written so far waits before it looks again. */
const POLL_MS = 2;

/**
 * Reads into `into` the next bytes of `file` written and not yet sent (the
 * last `held` bytes of it kept back): how many, 0 when there are none now;
 * `finished` as it was before looking. Without bytes held back the file is
 * read to its end as it is, with no look at its size first.
 */
async function readInto(file: Growing, held: number, into: Uint8Array): Promise<{ read: number; finished: boolean }> {
  const finished = file.finished;
  file.handle ??= await open(file.path, "r").catch((e) => e?.code === "ENOENT" ? null : Promise.reject(e));
  if (!file.handle) return { read: 0, finished };
  let room = into.length;
  if (held > 0) room = Math.min(room, (await file.handle.stat()).size - held - file.at);
  if (room <= 0) return { read: 0, finished };
  const { bytesRead } = await file.handle.read(into, 0, room, file.at);
  file.at += bytesRead;
  return { read: bytesRead, finished };
}

/**
 * Where the next bytes go: into the reader's own buffer when it brought one
 * (a BYOB read, as the node's HTTP writer makes: one buffer for the whole
 * body) after room for `lead`, else into a buffer of their own.
 */
function roomFor(controller: ReadableByteStreamController, lead: Uint8Array): Uint8Array<ArrayBuffer> {
  const view = controller.byobRequest?.view;
  if (view && view.byteLength > lead.length) {
    return new Uint8Array(view.buffer as ArrayBuffer, view.byteOffset + lead.length, view.byteLength - lead.length);
  }
  // Not zeroed first: only the bytes read into it are sent.
  const step = Buffer.allocUnsafe(STEP);
  return new Uint8Array(step.buffer as ArrayBuffer, step.byteOffset, step.length);
}

/** Gives the reader `lead` and the `read` bytes read into `room` (from {@linkcode roomFor}). */
function deliver(
  controller: ReadableByteStreamController,
  lead: Uint8Array<ArrayBuffer>,
  room: Uint8Array<ArrayBuffer>,
  read: number,
): void {
  const request = controller.byobRequest;
  if (request?.view && request.view.buffer === room.buffer) {
    new Uint8Array(room.buffer, room.byteOffset - lead.length, lead.length).set(lead);
    request.respond(lead.length + read);
    return;
  }
  if (lead.length > 0) controller.enqueue(lead);
  controller.enqueue(new Uint8Array(room.buffer, room.byteOffset, read));
}

/**
 * Sends the next bytes of `file` written and not yet sent, after `lead` (its
 * framing, before its first bytes), unless the stream was `cancelled`
 * meanwhile: how many were read, 0 when there are none now.
 */
async function sendNext(
  controller: ReadableByteStreamController,
  file: Growing,
  held: number,
  lead: Uint8Array<ArrayBuffer>,
  cancelled: () => boolean,
): Promise<{ read: number; finished: boolean }> {
  const room = roomFor(controller, lead);
  const got = await readInto(file, held, room);
  if (got.read > 0 && !cancelled()) deliver(controller, lead, room, got.read);
  return got;
}

/** Ends the stream with `last` (its tail, and its head when no line was sent). */
function closeWith(controller: ReadableByteStreamController, last: Uint8Array<ArrayBuffer>): void {
  if (last.length > 0) controller.enqueue(last);
  controller.close();
  controller.byobRequest?.respond(0);
}

/** Closes and removes a query's file, if there is one. */
async function remove(file: Growing | null | undefined): Promise<void> {
  if (!file) return;
  await file.handle?.close().catch(() => {});
  await rm(file.path, { force: true });
}

/** Starts `query` writing its lines to `path` on `s`; `done` is told the lines written once DuckDB is done. */
function writing(
  s: Session,
  query: LineQuery,
  path: string,
  framing: LineFraming,
  done: (file: Growing, rows: number) => void,
): Growing {
  const file: Growing = { path, done: Promise.resolve(), finished: false, handle: null, at: 0 };
  file.done = s.run((c) => runOne(c, copySql(query.select, path, framing), query.params)).then((result) => {
    file.finished = true;
    done(file, Number(result.rowsChanged));
  });
  file.done.catch(() => {}); // its failure is the pull's that waits on it
  return file;
}

/** A file no query makes, since the query could not be made: waiting on it fails with `error`. */
function unmade(path: string, error: unknown): Growing {
  const done = Promise.reject(error);
  done.catch(() => {}); // its failure is the pull's that waits on it
  return { path, done, finished: false, handle: null, at: 0 };
}

/** What goes before a query's first bytes: the head and first line's lead on the stream's first, else the join. */
function framingBefore(framing: LineFraming, streamStart: boolean): string {
  if (streamStart) return framing.head + framing.first;
  return framing.terminated ? "" : framing.join;
}

/**
 * The lines of the queries `next` gives (told how many lines the one before
 * wrote), one after another, framed by `framing`, as one stream: each
 * query's lines written by DuckDB to a file of `engine`'s scratch folder (on
 * a session of their own) and sent as the file grows, the file removed once
 * sent; the next query starts as soon as the one before is done, whether
 * the client has read its lines yet or not (waiting for the client left
 * DuckDB idle between ranges), one query ahead at most. DuckDB writes at its
 * own pace, whatever the client's (its threads serve other queries), and the
 * disk a stream takes is two queries' lines at most. Cancelling the
 * stream closes the session and removes the files.
 *
 * @example
 * ```ts ignore
 * let done = false;
 * const body = copyLines(engine, () => done ? null : (done = true, { select, params: [] }), framing);
 * ```
 */
export function copyLines(
  engine: ReadEngine,
  next: (written: number | null) => LineQuery | null,
  framing: LineFraming,
): ReadableStream<Uint8Array> {
  let session: Session | null = null;
  let files = 0;
  let current: Growing | null | undefined;
  let ahead: Growing | null | undefined;
  let sent = 0;
  let cancelled = false;
  let written: number | null = null;
  let ending = false;
  const id = crypto.randomUUID();
  const held = framing.terminated ? 0 : encoder.encode(framing.join).length;
  /** Starts the next query writing its file; null when there are no more. */
  const start = (s: Session): Growing | null => {
    const path = join(engine.scratch, `lines-${id}-${files++}`);
    let query: LineQuery | null;
    try {
      query = next(written);
    } catch (e) {
      return unmade(path, e);
    }
    if (query === null) return null;
    return writing(s, query, path, framing, (file, rows) => {
      written = rows;
      // DuckDB goes on with the next query while this one's lines are sent, not when the client asks.
      if (!ending && file === current && ahead === undefined) ahead = start(s);
    });
  };
  const end = async () => {
    ending = true;
    await session?.close(); // waits for the query under way: no file is made after
    await remove(current);
    await remove(ahead);
    current = ahead = null;
  };
  return new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: STEP,
    async pull(controller: ReadableByteStreamController) {
      try {
        const s = session ??= await engine.session();
        for (;;) {
          if (cancelled) return void await end();
          if (current === undefined) current = start(s);
          if (current === null) {
            await s.close();
            return closeWith(controller, encoder.encode((sent === 0 ? framing.head : "") + framing.tail));
          }
          if (current.finished && ahead === undefined) ahead = start(s);
          const lead = current.at === 0 ? encoder.encode(framingBefore(framing, sent === 0)) : NOTHING;
          const { read, finished } = await sendNext(controller, current, held, lead, () => cancelled);
          if (read > 0) {
            if (cancelled) return void await end();
            sent += read;
            return;
          }
          if (finished) {
            await remove(current);
            [current, ahead] = [ahead === undefined ? start(s) : ahead, undefined];
            continue;
          }
          await Promise.race([current.done, new Promise((r) => setTimeout(r, POLL_MS))]);
        }
      } catch (e) {
        await end().catch(() => {});
        controller.error(e);
      }
    },
    cancel() {
      cancelled = true;
      return end();
    },
  }, { highWaterMark: 0 });
}

/**
 * `stream` with its first chunk read already, so that what fails at its
 * start (a value not of its column's type) rejects here, not mid-answer; the
 * rest is relayed as its reader asks (`relay`: into the reader's own buffer
 * when it brings one).
 *
 * @example
 * ```ts
 * import { started } from "./_line_streams.ts";
 * const body = await started(new Response("abc").body!);
 * await new Response(body).text(); // "abc"
 * ```
 */
export async function started(stream: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const reader = stream.getReader();
  const first = await reader.read();
  reader.releaseLock();
  return relay(stream, { first });
}
