/**
 * The projects: the list, and one project's detail.
 *
 * @module
 */
import type { ProjectDetail, ProjectEntry } from "../wire/mod.ts";
import { SLUG } from "./fields.ts";
import type { Operation } from "./operation.ts";

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
} as const satisfies Record<string, Operation>;
