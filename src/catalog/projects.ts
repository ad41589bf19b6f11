/**
 * The projects: the list, one project's detail, and its versions.
 *
 * @module
 */
import { type ProjectDetail, type ProjectEntry, WIRE_LIMITS } from "../wire/mod.ts";
import { SLUG } from "./fields.ts";
import type { Operation } from "./operation.ts";
import type { IntegerField } from "./schema.ts";

/** The projects' operations. */
export const PROJECT_OPERATIONS = {
  list_projects: {
    name: "list_projects",
    method: "GET",
    path: "/projects",
    about: "Every project of the node: slug, title, license, records and versions held.",
    input: {},
    answer: undefined as unknown as { projects: ProjectEntry[] },
    encoding: "json",
    costly: false,
    public: false,
    write: false,
    tool: {
      name: "list_datasets",
      title: "List datasets",
      description: "Dataset projects on this node: slug, title, license, records and versions held. " +
        "Give `query` to keep those whose slug or title contains it.",
      guide: "Start with `list_datasets`, then read a dataset's schema and README with `dataset_info` before " +
        "reading or querying its records.",
      extra: {
        query: { type: "string", maxLength: 200, optional: true, about: "Substring of the slug or title (any case)." },
      },
    },
    command: {
      name: "projects",
      about: "list the projects of a node or the origin, or show one",
      group: "datasets",
    },
  },
  project_detail: {
    name: "project_detail",
    method: "GET",
    path: "/projects/{slug}",
    about: "One project: README, schema, license and the versions held.",
    input: { slug: SLUG },
    answer: undefined as unknown as ProjectDetail,
    encoding: "json",
    costly: false,
    public: false,
    write: false,
    tool: {
      name: "dataset_info",
      title: "Dataset info",
      description: "One project's README, schema (fields and types), license and the versions this node holds. " +
        "Read it before reading or querying the records.",
    },
  },
  list_versions: {
    name: "list_versions",
    method: "GET",
    path: "/projects/{slug}/versions",
    about: "A project's versions held, newest first, a page at a time: each one's number, when it was made, its " +
      "records and parts.",
    input: {
      slug: SLUG,
      limit: {
        type: "integer",
        ...WIRE_LIMITS.versions,
        about: (f: IntegerField): string => `Versions in the page, ${f.min}-${f.max} (default ${f.default}).`,
      },
      before: {
        type: "integer",
        min: 1,
        optional: true,
        about: "Only versions older than this one (the previous page's `next`); from the newest when left out.",
      },
    },
    answer: undefined as unknown as {
      project: string;
      count: number;
      versions: { version: number; createdAt: string | null; records: number; parts: number }[];
      next: number | null;
    },
    encoding: "json",
    costly: false,
    public: false,
    write: false,
    tool: {
      name: "list_versions",
      title: "List versions",
      description: 'A project\'s versions this node holds, newest first, e.g. `{"slug": "cities", "limit": 5}`: ' +
        "each version's number, when it was made, its records and its Parquet parts, with `count` (versions held) " +
        "and `next` (give it as `before` for the older page; null at the end).",
      guide: "`list_versions` pages through a project's versions, newest first, with when each was made and its " +
        "records: pick the version to read, query or compare.",
      narrow: { limit: WIRE_LIMITS.toolVersions },
    },
    command: {
      name: "versions",
      about: "list a project's versions, newest first",
      group: "datasets",
      table: { rows: "versions", columns: ["version", "createdAt", "records", "parts"], next: "before" },
    },
  },
} as const satisfies Record<string, Operation>;
