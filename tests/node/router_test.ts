import { assertEquals } from "../support/assert.ts";
import { NODE_ROUTER } from "../../src/node/routes/table.ts";

const match = (path: string) => NODE_ROUTER.find(path)?.route;

Deno.test("the routes whose answers cost memory are the ones the memory gate holds; the cheap ones never wait", () => {
  const costly = [
    "/projects/cities/data",
    "/projects/cities/query",
    "/projects/cities/export",
    "/projects/cities/statistics",
    "/projects/cities/diff",
    "/projects/cities/contribute",
    "/mcp",
    "/delta-sharing/shares",
    "/delta-sharing/shares/svc/schemas/default/tables/cities/query",
  ];
  const cheap = [
    "/",
    "/healthz",
    "/readyz",
    "/metrics",
    "/projects",
    "/projects/cities",
    "/projects/cities/manifest",
    "/projects/cities/contributions/abc",
    "/parts/cities/ab.parquet",
    "/ui/login",
  ];
  for (const path of costly) assertEquals(match(path)?.costly, true, path);
  for (const path of cheap) assertEquals(match(path)?.costly ?? false, false, path);
});
