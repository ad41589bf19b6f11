import { z } from "zod/v3";
import { describeIssues } from "../../src/mcp/issues.ts";
import { assertEquals } from "../support/assert.ts";

const schema = z.object({
  slug: z.string(),
  limit: z.number().int().min(1).max(200).optional(),
  sql: z.string().min(1).max(10).optional(),
  tags: z.array(z.string()).max(2).optional(),
  mode: z.enum(["a", "b"]).optional(),
  nested: z.object({ fields: z.array(z.object({ name: z.string() }).strict()) }).strict().optional(),
}).strict();

function message(input: unknown): string {
  const parsed = schema.safeParse(input);
  if (parsed.success) return "ok";
  return describeIssues(parsed.error.issues, input, "argument");
}

Deno.test("issues: zod's issues become short phrases naming the argument", () => {
  const cases: [unknown, string][] = [
    [{ slug: "a" }, "ok"],
    [{}, "missing argument slug"],
    [{ slug: null }, "argument slug must be a string"],
    [{ slug: "a", limit: 0 }, "argument limit must be at least 1"],
    [{ slug: "a", limit: 1.5 }, "argument limit must be an integer"],
    [{ slug: "a", sql: "x".repeat(11) }, "argument sql must be at most 10 characters long"],
    [{ slug: "a", tags: ["a", "b", "c"] }, "argument tags must have at most 2 items"],
    [{ slug: "a", mode: "c" }, 'argument mode must be one of "a", "b"'],
    [{ slug: "a", nested: { fields: [{ name: 1 }] } }, "argument nested.fields[0].name must be a string"],
    [{ slug: "a", nested: { fields: [{}] } }, "missing argument nested.fields[0].name"],
    [{ slug: "a", nested: { fields: [{ name: "x", kind: 1 }] } }, "unknown argument nested.fields[0].kind"],
    [{ slug: "a", x: 1, y: 2 }, "unknown arguments x, y"],
    [
      { limit: "many", sql: "", tags: 1, mode: 2 },
      "missing argument slug; argument limit must be a number; " +
      "argument sql must be at least 1 characters long; and 2 more",
    ],
  ];
  for (const [input, expected] of cases) assertEquals(message(input), expected, JSON.stringify(input));
});
