import { assertEquals, assertRejects, assertThrows } from "../../support/assert.ts";
import { PaymentRequiredError } from "../../../src/client/errors.ts";
import { openWallet, walletKey } from "../../../src/origin/pay/wallet.ts";

const KEY = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

Deno.test("the wallet key: the option, else SVC_WALLET_KEY; with or without 0x, any case", () => {
  assertEquals(walletKey(undefined, { SVC_WALLET_KEY: KEY.toUpperCase() }), `0x${KEY}`);
  assertEquals(walletKey(`0x${KEY}`, { SVC_WALLET_KEY: "ignored" }), `0x${KEY}`);
  assertEquals(walletKey(` 0X${KEY} `, {}), `0x${KEY}`);
});

Deno.test("no wallet key, or a malformed one, is a PaymentRequiredError that never holds the key", async () => {
  const none = assertThrows(() => walletKey(undefined, {}), /^no wallet key: set SVC_WALLET_KEY/);
  assertEquals([none instanceof PaymentRequiredError, (none as PaymentRequiredError).status], [true, null]);
  for (const bad of [KEY.slice(1), `${KEY}00`, `0x${KEY.slice(0, 63)}z`, "0".repeat(64)]) {
    const e = assertThrows(() => walletKey(bad, {}), /is not a private key/);
    assertEquals(e.message.includes(bad) || e.message.includes(KEY.slice(8, 40)), false);
  }
  const order = "f".repeat(64);
  const e = await assertRejects(() => openWallet(`0x${order}`), /not a valid secp256k1 private key/);
  assertEquals(e instanceof PaymentRequiredError, true);
});

Deno.test("the wallet holds its key in a closure: nothing of it shows when the wallet is printed or serialized", async () => {
  const wallet = await openWallet(`0x${KEY}`);
  assertEquals(wallet.address, "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23");
  const shown = JSON.stringify(wallet) + Deno.inspect(wallet, { depth: 10, showHidden: true });
  assertEquals(shown.toLowerCase().includes(KEY.slice(0, 16)), false);
});
