import { assertEquals, assertThrows } from "../../support/assert.ts";
import { SvcError } from "../../../src/client/errors.ts";
import {
  checkStatement,
  disputeStatement,
  payOrigin,
  purchaseHistoryStatement,
  transactionHash,
} from "../../../src/origin/pay/statements.ts";

const WALLET = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23";
const TX = "0x" + "Ab".repeat(32);

Deno.test("the templates: lines joined by \\n, no trailing newline, wallet and transaction lower-cased", () => {
  assertEquals(
    purchaseHistoryStatement(WALLET, "http://localhost:3001", 1700000000),
    "SVC purchase history\nwallet: 0x2c7536e3605d9c16a7a3d7b1898e529396a65c23\norigin: http://localhost:3001\n" +
      "time: 1700000000",
  );
  assertEquals(
    disputeStatement(TX, WALLET, "https://pay.example", 1700000001),
    `SVC dispute\ntransaction: 0x${"ab".repeat(32)}\nwallet: 0x2c7536e3605d9c16a7a3d7b1898e529396a65c23\n` +
      "origin: https://pay.example\ntime: 1700000001",
  );
});

Deno.test("the pay origin: scheme and host lower-cased, default ports dropped, IPv6 in brackets, path kept", () => {
  assertEquals(payOrigin("HTTPS://Pay.Example:443"), "https://pay.example");
  assertEquals(payOrigin("http://Pay.Example:80/"), "http://pay.example");
  assertEquals(payOrigin("http://localhost:3001"), "http://localhost:3001");
  assertEquals(payOrigin("http://[::1]:3001/"), "http://[::1]:3001");
  assertEquals(payOrigin("https://origin.example/Pay/v1/"), "https://origin.example/Pay/v1");
});

Deno.test("a transaction hash is 0x and 64 hex digits, trimmed and lower-cased, else SvcError", () => {
  assertEquals(transactionHash(`  ${TX.toUpperCase().replace("0X", "0x")} `), `0x${"ab".repeat(32)}`);
  for (const bad of ["", "0x1234", "ab".repeat(32), `0x${"g".repeat(64)}`, `${TX}00`]) {
    const e = assertThrows(() => transactionHash(bad), /is not a transaction hash/);
    assertEquals(e instanceof SvcError, true);
  }
});

Deno.test("a statement is signed only if its time is within 300 s (299 yes, 301 no) and its text is the template's", () => {
  const origin = "http://127.0.0.1:3001";
  const build = (t: number) => purchaseHistoryStatement(WALLET.toLowerCase(), origin, t);
  const time = 1_700_000_000;
  const answer = { statement: build(time), time };
  assertEquals(checkStatement(answer, build, (time + 299) * 1000), time);
  assertEquals(checkStatement(answer, build, (time - 299) * 1000 - 999), time, "seconds, floored");
  assertEquals(checkStatement(answer, build, (time + 300) * 1000), time);
  assertThrows(() => checkStatement(answer, build, (time + 301) * 1000), /301 s from this machine's clock/);
  assertThrows(() => checkStatement(answer, build, (time - 301) * 1000), /check the clock; refusing to sign/);
  for (let i = 0; i < answer.statement.length; i++) {
    const code = answer.statement.charCodeAt(i);
    const off = answer.statement.slice(0, i) + String.fromCharCode(code ^ 1) + answer.statement.slice(i + 1);
    assertThrows(() => checkStatement({ statement: off, time }, build, time * 1000), /not the expected text/);
  }
  assertThrows(() => checkStatement({ statement: answer.statement + "\n", time }, build, time * 1000), /expected/);
  assertThrows(() => checkStatement({ statement: answer.statement, time: time + 0.5 }, build, time * 1000), /whole/);
  assertThrows(
    () => checkStatement({ statement: answer.statement, time: String(time) } as never, build, time * 1000),
    /whole-number time/,
  );
});
