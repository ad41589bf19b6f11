/**
 * The lines of Delta Sharing's answers (delta-io/delta-sharing PROTOCOL.md),
 * typed: `protocol`, `metaData`, `file` (and `add` in a change feed), and
 * `endStreamAction`, in the protocol's `parquet` format and its `delta`
 * format, where a file carries a Delta log action.
 *
 * @module
 */

/** The answer formats of the protocol. */
export type ResponseFormat = "parquet" | "delta";

/** The `protocol` line: the reader version the answer needs. */
export type ProtocolLine =
  | { protocol: { minReaderVersion: number } }
  | { protocol: { deltaProtocol: { minReaderVersion: number; minWriterVersion: number } } };

/** What the two formats say alike of a table. */
interface TableDescription {
  /** The table's stable id. */
  id: string;
  /** The table's name (the project's slug). */
  name: string;
  /** The project's title, when it has one. */
  description?: string;
  /** The files' format: always parquet (with no options in the delta format's). */
  format: { provider: "parquet"; options?: Record<string, string> };
  /** Spark's schema, as JSON text. */
  schemaString: string;
  /** None: the node's tables are not partitioned. */
  partitionColumns: string[];
  /** The table's settings (`enableChangeDataFeed` in a change feed). */
  configuration: Record<string, string>;
}

/** How big the version is. */
interface VersionSize {
  /** Bytes of its files. */
  size: number;
  /** How many files. */
  numFiles: number;
}

/** The `metaData` line in the parquet format. */
export type ParquetMetadata = TableDescription & VersionSize & { version?: number };

/** The `metaData` line in the delta format: the Delta log's metadata action inside. */
export type DeltaMetadata = VersionSize & {
  version?: number;
  deltaMetadata: TableDescription & { createdTime: number };
};

/** The `metaData` line. */
export type MetadataLine = { metaData: ParquetMetadata } | { metaData: DeltaMetadata };

/** One file in the parquet format: a URL to fetch it from, and its statistics. */
export interface ParquetFile {
  /** Where to fetch it (signed on a node with a token). */
  url: string;
  /** Its id: the part's SHA-256. */
  id: string;
  /** None: the node's tables are not partitioned. */
  partitionValues: Record<string, string>;
  /** Its bytes. */
  size: number;
  /** Its statistics (`numRecords`, `minValues`, `maxValues`, `nullCount`), as JSON text. */
  stats: string;
  /** When the URL expires, in ms since the epoch. */
  expirationTimestamp: number;
  /** The version it belongs to (time travel and change feeds). */
  version?: number;
  /** When that version was made, in ms since the epoch. */
  timestamp?: number;
}

/** One file in the delta format: a Delta log `add` action holding the URL. */
export interface DeltaFile {
  /** Its id: the part's SHA-256. */
  id: string;
  /** Its bytes. */
  size: number;
  /** When the URL expires, in ms since the epoch. */
  expirationTimestamp: number;
  /** The version it belongs to (time travel and change feeds). */
  version?: number;
  /** When that version was made, in ms since the epoch. */
  timestamp?: number;
  /** The Delta log action. */
  deltaSingleAction: {
    add: {
      path: string;
      partitionValues: Record<string, string>;
      size: number;
      modificationTime: number;
      dataChange: true;
      stats: string;
    };
  };
}

/** A `file` line (a version's files), or an `add` line (a change feed's added files, in the parquet format). */
export type FileLine = { file: ParquetFile } | { add: ParquetFile } | { file: DeltaFile };

/** The last line of a paged query, or one a client asked for: where to go on, and when the URLs expire. */
export interface EndStreamLine {
  /** What ends the stream. */
  endStreamAction: { nextPageToken?: string; minUrlExpirationTimestamp?: number };
}

/** Any line of a metadata, query or changes answer. */
export type SharingLine = ProtocolLine | MetadataLine | FileLine | EndStreamLine;
