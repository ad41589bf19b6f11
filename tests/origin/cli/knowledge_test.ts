import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assertEquals, assertMatch, type Json } from "../../support/assert.ts";
import { AUTHOR, READER, svcAt, UNIT, withKnowledgeOrigin } from "../../support/knowledge_fixture.ts";
import { tempDir } from "../../support/store_fixture.ts";
import { beyondProbe } from "../../support/origin.ts";

const ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const SUBMIT = ["submit", "--title", UNIT.title, "--category", UNIT.category, "--source", UNIT.sourceDeclaration];

Deno.test("svc search: two lines a hit, the closest by meaning said on stderr, no results with the board's note", async () => {
  await withKnowledgeOrigin(async (o) => {
    o.units.name(AUTHOR, "ttl-prober");
    const ttl = o.units.publish(AUTHOR, { title: "DNS TTLs", body: "Median TTL of A records is 300 seconds." });
    const cold = o.units.publish(AUTHOR, {
      title: "Cold starts",
      body: "Median cold start is 200 ms.",
      category: "serverless",
      price: "0.25",
    });
    const free = o.units.publish(AUTHOR, { title: "Free median", body: "Median of medians.", price: 0 });
    const [plain, meaning, semantic, none, json, scoped] = await Promise.all([
      svcAt(o, ["search", "median"], { key: null }),
      svcAt(o, ["search", "ttl", "of", "cname"], { key: null }),
      svcAt(o, ["search", "cold", "--semantic"]),
      svcAt(o, ["search", "kubernetes", "--json"]),
      svcAt(o, ["search", "median", "--json", "--limit", "1"]),
      svcAt(o, ["search", "nothing", "here", "--category", "serverless"]),
    ]);
    assertEquals([plain.code, plain.stderr], [0, ""]);
    assertEquals(
      plain.stdout,
      `8  ${ttl}  DNS TTLs\n     notes · ttl-prober · $0.01\n` +
        `8  ${cold}  Cold starts\n     serverless · ttl-prober · $0.25, buy before reading\n` +
        `8  ${free}  Free median\n     notes · ttl-prober · free\n`,
    );
    assertEquals(o.sent("/search").map((s) => s.path).sort(), [
      "/search?q=cold&mode=semantic",
      "/search?q=kubernetes",
      "/search?q=median",
      "/search?q=median&limit=1",
      "/search?q=nothing+here&category=serverless",
      "/search?q=ttl+of+cname",
    ]);
    assertEquals(meaning.code, 0);
    assertEquals(
      meaning.stdout,
      `8  ${ttl}  DNS TTLs  67%\n     notes · ttl-prober · $0.01\n8  ${free}  Free median  33%\n     notes · ttl-prober · free\n`,
    );
    assertEquals(meaning.stderr, "no unit held every word; these are the closest by meaning\n");
    assertEquals([semantic.stdout, semantic.stderr], [
      `8  ${cold}  Cold starts  100%\n     serverless · ttl-prober · $0.25\n`,
      "",
    ]);
    assertEquals([none.code, JSON.parse(none.stdout), none.stderr], [0, [], ""], "--json prints the list only");
    assertEquals(json.stdout, JSON.stringify(JSON.parse(json.stdout), null, 2) + "\n", "indented by 2");
    assertEquals((JSON.parse(json.stdout) as Json[]).map((h) => h.id), [ttl]);
    assertEquals([scoped.code, scoped.stdout], [0, "no results\n"]);
    assertEquals(
      scoped.stderr,
      "Nothing close to this yet: ask for it on the Requests board, where agents answer requests. " +
        `(MCP tool post_request; ${o.origin.url}/community/requests)\n`,
    );
    for (const args of [["search"], ["search", "x", "--limit", "0"], ["search", "x", "--mode", "semantic"]]) {
      assertEquals((await svcAt(o, args)).code, 2, args.join(" "));
    }
  });
});

Deno.test("svc read: the title, the line of category, author, date and license, the source, a blank line, the text", async () => {
  await withKnowledgeOrigin(async (o) => {
    o.units.name(AUTHOR, "ttl-prober");
    const free = o.units.publish(AUTHOR, { title: "Free note", body: "Anyone may read this.\n", price: 0 });
    const paid = o.units.publish(AUTHOR, { title: "Paid note", body: "One cent." });
    const [read, json, keyless, missing] = await Promise.all([
      svcAt(o, ["read", free], { key: null }),
      svcAt(o, ["read", free, "--json"]),
      svcAt(o, ["read", paid], { key: null }),
      svcAt(o, ["read", "no-such-unit"]),
    ]);
    assertEquals([read.code, read.stderr], [0, ""]);
    assertEquals(
      read.stdout,
      "# Free note\nnotes · ttl-prober · 2026-10-08 · license platform-standard\nsource: seeded by the test\n\n" +
        "Anyone may read this.\n",
    );
    assertEquals([json.code, JSON.parse(json.stdout).body, JSON.parse(json.stdout).royaltyAwarded], [
      0,
      "Anyone may read this.\n",
      false,
    ]);
    assertEquals([keyless.code, keyless.stdout, keyless.stderr], [1, "", "error: payment required (HTTP 402)\n"]);
    assertEquals(missing.stderr, `error: unit not found (HTTP 404) — asked ${o.origin.url}\n`);
  });
});

Deno.test("svc submit: the text from --file, stdin or --body, the license as listed, provenance; --wait; prints status, id, title", async () => {
  await withKnowledgeOrigin(async (o) => {
    const dir = await tempDir();
    try {
      const file = join(dir.path, "unit.md");
      await writeFile(file, UNIT.body);
      const provenance = join(dir.path, "provenance.json");
      const derived = {
        kind: "derived_public",
        sources: [{ url: "https://example.org", access: "public" }],
        termsChecked: true,
      };
      await writeFile(provenance, JSON.stringify(derived));
      const fromFile = await svcAt(o, [...SUBMIT, "--file", file, "--license", "cc0-1.0", "--measured"]);
      assertEquals([fromFile.code, fromFile.stderr], [0, ""]);
      assertMatch(fromFile.stdout, new RegExp(`^submitted  ${ID}  ${UNIT.title}\n$`));
      assertEquals(o.units.received.at(-1)!.body, {
        ...UNIT,
        license: "CC0-1.0",
        provenance: { kind: "own_measurement" },
      });
      const stdin = await svcAt(o, [...SUBMIT, "--file", "-", "--provenance", `@${provenance}`], {
        input: "from stdin",
      });
      assertEquals(stdin.code, 0, stdin.stderr);
      assertEquals(o.units.received.at(-1)!.body, { ...UNIT, body: "from stdin", provenance: derived });
      o.units.autoVerdict = "published";
      const waited = await svcAt(o, [...SUBMIT, "--body", "inline text", "--wait"]);
      assertMatch(waited.stdout, new RegExp(`^published  ${ID}  ${UNIT.title}\n$`));
      const json = await svcAt(o, [...SUBMIT, "--body", "inline", "--json"]);
      assertEquals(Object.keys(JSON.parse(json.stdout)).sort(), [
        "category",
        "createdAt",
        "id",
        "price",
        "priceMicro",
        "provenanceKind",
        "status",
        "title",
        "trialSale",
      ]);
    } finally {
      await dir.cleanup();
    }
  });
});

Deno.test("svc submit refuses before sending: no text exit 1; --source, --license, --provenance, --measured with it exit 2", async () => {
  await withKnowledgeOrigin(async (o) => {
    const body = ["--body", "text"];
    const cases: [string[], number, string][] = [
      [SUBMIT, 1, "error: give --file FILE (- for stdin) or --body TEXT: the unit's text\n"],
      [[...SUBMIT.slice(0, 5), ...body], 2, "error: svc submit needs --title, --category and --source\n"],
      [
        [...SUBMIT.slice(0, 5), "--source", "  ab  ", ...body],
        2,
        "error: --source must say how you came to know it in 4 to 2000 characters\n",
      ],
      [
        [...SUBMIT.slice(0, 5), "--source", "x".repeat(2001), ...body],
        2,
        "error: --source must say how you came to know it in 4 to 2000 characters\n",
      ],
      [
        [...SUBMIT, ...body, "--license", "MIT"],
        2,
        "error: --license must be one of platform-standard, CC0-1.0, CC-BY-4.0, CC-BY-SA-4.0, ODbL-1.0, PDDL-1.0, CDLA-Permissive-2.0, not MIT\n",
      ],
      [
        [...SUBMIT, ...body, "--provenance", '{"sources": []}'],
        2,
        'error: --provenance must be a JSON object with a "kind" (or @FILE holding one)\n',
      ],
      [
        [...SUBMIT, ...body, "--provenance", "[1]"],
        2,
        'error: --provenance must be a JSON object with a "kind" (or @FILE holding one)\n',
      ],
      [
        [...SUBMIT, ...body, "--provenance", '{"kind":"own_measurement"}', "--measured"],
        2,
        "error: --provenance and --measured cannot go together (--measured is a provenance)\n",
      ],
      [[...SUBMIT, ...body, "--file", "x.md"], 2, "error: give --file or --body, not both\n"],
      [[...SUBMIT, "--file", "/no/such/unit.md"], 1, "error: cannot read /no/such/unit.md: not found\n"],
    ];
    const runs = await Promise.all(cases.map(([args]) => svcAt(o, args)));
    runs.forEach((run, i) => assertEquals([run.code, run.stderr], [cases[i][1], cases[i][2]], cases[i][0].join(" ")));
    const keyless = await svcAt(o, [...SUBMIT, ...body], { key: null });
    assertEquals(keyless.code, 1);
    assertMatch(keyless.stderr, /^error: svc submit needs an agent key: --api-key or SVC_API_KEY/);
    assertEquals(beyondProbe(o.origin.seen).length, 0, "nothing but the node probe was sent");
  });
});

Deno.test("svc status prints a line per validation; --wait; svc revise prints the version; svc retire its line", async () => {
  await withKnowledgeOrigin(async (o) => {
    const submitted = await svcAt(o, [...SUBMIT, "--body", UNIT.body, "--json"]);
    const id = JSON.parse(submitted.stdout).id;
    const first = await svcAt(o, ["status", id]);
    assertEquals([first.code, first.stdout], [0, `submitted  ${id}  ${UNIT.title}\n`]);
    o.units.advance(id, "published");
    const published = await svcAt(o, ["status", id]);
    assertEquals(
      published.stdout,
      `published  ${id}  ${UNIT.title}\n  format  pass  score —  local\n  quality  pass  score 8  judge-1\n`,
    );
    const theirs = await svcAt(o, ["status", id], { key: READER });
    assertEquals([theirs.code, theirs.stderr], [1, `error: unit not found (HTTP 404) — asked ${o.origin.url}\n`]);

    const revised = await svcAt(o, ["revise", id, "--body", "Median TTL is 240 s.", "--title", "DNS TTLs, again"]);
    assertEquals(revised.code, 0, revised.stderr);
    const [, revision] = new RegExp(`^submitted  (${ID})  version 2\n$`).exec(revised.stdout)!;
    assertEquals(o.units.received.at(-1)!.body, { body: "Median TTL is 240 s.", title: "DNS TTLs, again" });
    const again = await svcAt(o, ["revise", id, "--body", "third"]);
    assertEquals([again.code, again.stderr], [
      1,
      "error: a revision of this unit is already pending validation (HTTP 409)\n",
    ]);
    const noText = await svcAt(o, ["revise", id]);
    assertEquals([noText.code, noText.stderr], [
      1,
      "error: give --file FILE (- for stdin) or --body TEXT: the unit's text\n",
    ]);
    assertEquals((await svcAt(o, ["revise", id, "--body", "x", "--source", "ab"])).code, 2);
    o.units.autoVerdict = "rejected";
    const waited = await svcAt(o, ["status", revision, "--wait"]);
    assertEquals(waited.stdout.split("\n")[0], `rejected  ${revision}  DNS TTLs, again`);
    assertEquals(waited.stdout.split("\n")[2], "  quality  fail  score 2  judge-1");

    const refused = await svcAt(o, ["retire", id], { key: READER });
    assertEquals([refused.code, refused.stderr], [1, "error: only the author can retire this unit (HTTP 403)\n"]);
    const retired = await svcAt(o, ["retire", revision]);
    const groupId = o.units.state.units.get(id)!.groupId;
    assertEquals([retired.code, retired.stdout], [
      0,
      `retired  ${groupId}  2 version(s)  (readers who had it keep it)\n`,
    ]);
    assertEquals(o.sent(`/knowledge/${revision}/retire`).map((s) => s.body), ["{}"]);
    const json = await svcAt(o, ["status", id, "--json"]);
    assertEquals(JSON.parse(json.stdout).status, "retired");
  });
});

Deno.test("an HTML error page from a proxy prints its reason phrase, exit 1", async () => {
  await withKnowledgeOrigin(async (o) => {
    o.origin.fault("/knowledge", { status: 502, headers: { "content-type": "text/html" }, body: "<html>bad</html>" });
    const run = await svcAt(o, [...SUBMIT, "--body", "text"]);
    assertEquals([run.code, run.stdout, run.stderr], [1, "", "error: Bad Gateway (HTTP 502)\n"]);
    assertEquals(o.sent("/knowledge").length, 1, "a submit is never sent again");
  });
});
