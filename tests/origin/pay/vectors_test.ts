/**
 * Known answers for what the wallet signs: the EIP-712 specification's own
 * "Mail" example (its struct hash and its signature by the key
 * keccak256("cow")), EIP-191 `personal_sign` (the hash of "Hello World" and
 * web3's signature of "Some data"), each checked on the wallet of
 * src/origin/pay and on ethers, the independent implementation the test pay
 * service verifies with.
 *
 * @module
 */
import { assertEquals } from "../../support/assert.ts";
import { hashMessage, id, TypedDataEncoder, verifyMessage, verifyTypedData } from "../../support/ethers.ts";
import { openWallet } from "../../../src/origin/pay/wallet.ts";

const MAIL = {
  domain: {
    name: "Ether Mail",
    version: "1",
    chainId: 1,
    verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
  },
  types: {
    Person: [{ name: "name", type: "string" }, { name: "wallet", type: "address" }],
    Mail: [{ name: "from", type: "Person" }, { name: "to", type: "Person" }, { name: "contents", type: "string" }],
  },
  primaryType: "Mail",
  message: {
    from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
    to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
    contents: "Hello, Bob!",
  },
};
// From the EIP-712 specification (its example, eip712.js): the digest and v, r, s.
const MAIL_DIGEST = "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2";
const MAIL_SIGNATURE = "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d" +
  "07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b91562" + "1c";

Deno.test("EIP-712: the specification's Mail example hashes and signs to its published answer", async () => {
  const cow = id("cow") as `0x${string}`;
  const wallet = await openWallet(cow);
  assertEquals(wallet.address, "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826");
  assertEquals(TypedDataEncoder.hash(MAIL.domain, MAIL.types, MAIL.message), MAIL_DIGEST);
  assertEquals(await wallet.signTypedData(MAIL), MAIL_SIGNATURE);
  assertEquals(verifyTypedData(MAIL.domain, MAIL.types, MAIL.message, MAIL_SIGNATURE), wallet.address);
  const changed = { ...MAIL.message, contents: "Hello, Bob?" };
  assertEquals(verifyTypedData(MAIL.domain, MAIL.types, changed, MAIL_SIGNATURE) === wallet.address, false);
});

Deno.test("EIP-191 personal_sign: the prefixed hash and web3's published signature of 'Some data'", async () => {
  assertEquals(hashMessage("Hello World"), "0xa1de988600a42c4b4ab089b619297c17d53cffae5d5120d82d8a92d0bb3b78f2");
  assertEquals(hashMessage("Some data"), "0x1da44b586eb0729ff70a73c326926f6ed5a25f5b056e7f47fbc6e58d86871655");
  const wallet = await openWallet("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
  assertEquals(wallet.address, "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23");
  const signature = await wallet.signMessage("Some data");
  assertEquals(
    signature,
    "0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd" +
      "6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c",
  );
  assertEquals(verifyMessage("Some data", signature), wallet.address);
  const statement = "SVC purchase history\nwallet: 0x2c75\norigin: http://localhost:3001\ntime: 1700000000";
  assertEquals(verifyMessage(statement, await wallet.signMessage(statement)), wallet.address, "multi-line text");
});
