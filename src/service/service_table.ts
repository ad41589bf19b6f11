/**
 * The shape of the table of services by operation (see `operations.ts`),
 * which each area's file fills in for its own operations.
 *
 * @module
 */
import type { AnswerOf, OperationName, ParsedOf } from "../catalog/mod.ts";
import type { NodeState } from "./state.ts";

/** What a service answers: the answer, or its JSON already written (text, or UTF-8 bytes). */
export type Served<N extends OperationName> = AnswerOf<N> | string | Uint8Array<ArrayBuffer>;

/** The service of operation `N`. */
export type ServiceOf<N extends OperationName> = (state: NodeState, input: ParsedOf<N>) => Promise<Served<N>>;

/** Services by the operation they answer. */
export type ServiceTable = { readonly [N in OperationName]?: ServiceOf<N> };
