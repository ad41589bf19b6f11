/**
 * The input schemas of the catalog's operations, as data: each field's
 * type, its bounds (taken from the wire's limits), whether it may be left
 * out and its default, and one line saying what it is. The node parses a
 * request's path, query and body by them, the MCP tools build their strict
 * schemas from them, the command line its flags, the client its calls.
 *
 * @module
 */
import type { Bounded } from "../wire/mod.ts";

/** What every field says of itself. */
export interface FieldBase {
  /** What the field is, for a model, a help text or the docs; given the field, so a narrowed bound reads right. */
  readonly about: string | ((field: this) => string);
  /** Whether it may be left out (a field with a default may always be). */
  readonly optional?: boolean;
  /** Where a request carries it when the method does not say (GET: the query; POST: the body). */
  readonly in?: "query";
}

/** A whole number. */
export interface IntegerField extends FieldBase {
  /** The type. */
  readonly type: "integer";
  /** Its smallest value. */
  readonly min: number;
  /** Its largest value, if any (else 2^53 - 1). */
  readonly max?: number;
  /** The value when it is left out. */
  readonly default?: number;
}

/** A string. */
export interface StringField extends FieldBase {
  /** The type. */
  readonly type: "string";
  /** Its fewest characters. */
  readonly minLength?: number;
  /** Its most characters. */
  readonly maxLength?: number;
  /** The values it may take, when they are listed. */
  readonly enum?: readonly string[];
}

/** True or false. */
export interface BooleanField extends FieldBase {
  /** The type. */
  readonly type: "boolean";
}

/** A string, a number or a boolean (a filter's operand). */
export interface ScalarField extends FieldBase {
  /** The type. */
  readonly type: "scalar";
  /** The most characters of a string. */
  readonly maxLength?: number;
}

/** Any JSON object (a record). */
export interface RecordField extends FieldBase {
  /** The type. */
  readonly type: "record";
}

/** A list. */
export interface ArrayField extends FieldBase {
  /** The type. */
  readonly type: "array";
  /** What each item is. */
  readonly items: Field;
  /** The fewest items. */
  readonly minItems?: number;
  /** The most items. */
  readonly maxItems?: number;
}

/** An object with named fields and no others. */
export interface ObjectField extends FieldBase {
  /** The type. */
  readonly type: "object";
  /** Its fields. */
  readonly fields: Fields;
}

/** One field of an input. */
export type Field =
  | IntegerField
  | StringField
  | BooleanField
  | ScalarField
  | RecordField
  | ArrayField
  | ObjectField;

/** An input: its fields by name. */
export type Fields = Readonly<Record<string, Field>>;

/** The value a field of type `F` holds. */
export type ValueOf<F> = F extends { type: "integer" } ? number
  : F extends { type: "string"; enum: readonly (infer E)[] } ? E
  : F extends { type: "string" } ? string
  : F extends { type: "boolean" } ? boolean
  : F extends { type: "scalar" } ? string | number | boolean
  : F extends { type: "record" } ? Record<string, unknown>
  : F extends { type: "array"; items: infer I } ? ValueOf<I>[]
  : F extends { type: "object"; fields: infer O } ? InputFields<O>
  : unknown;

/** Whether field `F` may be left out: `true` or `false`. */
export type MayLeaveOut<F> = F extends { optional: true } ? true : F extends { default: number } ? true : false;
/** The fields of `Fs` a caller must give, with their values. */
export type RequiredFields<Fs> = { [K in keyof Fs as MayLeaveOut<Fs[K]> extends true ? never : K]: ValueOf<Fs[K]> };
/** The fields of `Fs` a caller may leave out, with their values. */
export type OptionalFields<Fs> = { [K in keyof Fs as MayLeaveOut<Fs[K]> extends true ? K : never]?: ValueOf<Fs[K]> };
/** `T` as one object type (an intersection flattened, for readable types). */
export type Flatten<T> = { [K in keyof T]: T[K] };

/** What a caller gives for the fields `Fs`: the optional ones and those with a default may be left out. */
export type InputFields<Fs> = Flatten<RequiredFields<Fs> & OptionalFields<Fs>>;

/** The value of field `F` once parsed: its default applied, or null when it was left out. */
export type Taken<F> = F extends { default: number } ? ValueOf<F> : MayLeaveOut<F> extends true ? ValueOf<F> | null
: ValueOf<F>;

/** What an operation is handed once its input is parsed: defaults applied, a field left out null. */
export type ParsedFields<Fs> = Flatten<{ [K in keyof Fs]: Taken<Fs[K]> }>;

/**
 * What `field` says of itself, with its bounds as they stand.
 *
 * @example
 * ```ts
 * import { aboutOf } from "./schema.ts";
 * aboutOf({ type: "integer", min: 1, max: 9, about: (f) => `1 to ${f.max}` }); // "1 to 9"
 * ```
 */
export function aboutOf(field: Field): string {
  return typeof field.about === "string" ? field.about : (field.about as (f: Field) => string)(field);
}

/**
 * Whether `field` may be left out of an input.
 *
 * @example
 * ```ts
 * import { mayLeaveOut } from "./schema.ts";
 * mayLeaveOut({ type: "integer", min: 0, default: 0, about: "Records to skip." }); // true
 * ```
 */
export function mayLeaveOut(field: Field): boolean {
  return field.optional === true || (field.type === "integer" && field.default !== undefined);
}

/**
 * `fields` with the integer fields named in `narrowed` held to narrower
 * bounds (an MCP tool's pages, smaller than HTTP's).
 *
 * @example
 * ```ts
 * import { narrow } from "./schema.ts";
 * const fields = { limit: { type: "integer", min: 1, max: 1000, default: 200, about: "Records." } } as const;
 * narrow(fields, { limit: { min: 1, max: 200, default: 50 } }).limit; // { type: "integer", min: 1, max: 200, default: 50, about: "Records." }
 * ```
 */
export function narrow(fields: Fields, narrowed: Readonly<Record<string, Bounded>>): Fields {
  const out: Record<string, Field> = { ...fields };
  for (const [name, limit] of Object.entries(narrowed)) {
    const field = fields[name];
    if (field?.type !== "integer") throw new Error(`cannot narrow ${name}: not an integer field`);
    out[name] = { ...field, min: limit.min, max: limit.max, default: limit.default };
  }
  return out;
}
