/**
 * ethers, for tests only: the independent implementation the test pay
 * service and the vector tests check signatures with. It is imported here
 * by its full npm specifier, pinned, so that it is in no import map: the
 * npm package and the JSR package never ship it.
 *
 * @module
 */
export {
  hashMessage,
  id,
  keccak256,
  TypedDataEncoder,
  verifyMessage,
  verifyTypedData,
  Wallet,
} from "npm:ethers@6.17.0";
