/**
 * The catalog of the node's operations, as data: each one's name, method
 * and path, input schema (built from the wire's limits), answer type and
 * encoding, cost, who may call it and whether it writes, and the MCP tool
 * and the `svc` command that mirror it. The router, the metrics' route
 * labels, the MCP tool list, the command line and the client are drawn from
 * it; docs/api.md lists it (DEVELOPERS.md: adding an operation).
 *
 * @module
 */
export {
  type AnswerOf,
  CATALOG,
  type Catalog,
  type InputOf,
  type OperationName,
  operations,
  type ParsedOf,
  toolOperations,
} from "./catalog.ts";
export {
  type CommandEntry,
  type CommandGroup,
  type Encoding,
  type Operation,
  type OperationAnswer,
  type OperationInput,
  type ParsedInput,
  pathParams,
  type ToolEntry,
} from "./operation.ts";
export {
  aboutOf,
  type ArrayField,
  type BooleanField,
  type Field,
  type FieldBase,
  type Fields,
  type Flatten,
  type InputFields,
  type IntegerField,
  type MayLeaveOut,
  mayLeaveOut,
  narrow,
  type ObjectField,
  type OptionalFields,
  type ParsedFields,
  type RecordField,
  type RequiredFields,
  type ScalarField,
  type StringField,
  type Taken,
  type ValueOf,
} from "./schema.ts";
export { checkFields, type Issue, type Problem, problemOf } from "./check.ts";
export { type ProjectCreated, WRITE_OPERATIONS } from "./writes.ts";
export { PROJECT_OPERATIONS } from "./projects.ts";
export { RECORD_OPERATIONS } from "./records.ts";
export { NODE_OPERATIONS } from "./node.ts";
export { QUERY_TABLE_REQUEST, SHARING_OPERATIONS, SHARING_PREFIX, type SharingOperation } from "./sharing.ts";
