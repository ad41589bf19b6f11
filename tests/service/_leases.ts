/**
 * A store's lease for the tests of what the node reads in the background
 * (read copies, kept columns): it counts the leases held now and ever.
 *
 * @module
 */

/** A `lease` that counts the leases held (`held.now`) and taken (`held.ever`). */
export function countingLeases() {
  const held = { now: 0, ever: 0 };
  return {
    held,
    lease: () => {
      held.now++;
      held.ever++;
      return Promise.resolve(() => void held.now--);
    },
  };
}
