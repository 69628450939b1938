// How the page writes values: percentages, heat colours, long counts, cell names. The
// rules are minegraph/present.py's (percent_places, heat_rgb): the stops come from the
// generated rules.js, and a test runs these functions against present.py's on the edge cases.
import { HEAT_STOPS } from "./rules.js";

// The exact value of a finite double x >= 0 as [numerator, denominator] (BigInt).
function exactParts(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const high = view.getUint32(0), low = view.getUint32(4);
  const exponent = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  let shift = -1074;                                  // subnormals and zero
  if (exponent !== 0) { mantissa |= 1n << 52n; shift = exponent - 1075; }
  return shift >= 0 ? [mantissa << BigInt(shift), 1n] : [mantissa, 1n << BigInt(-shift)];
}

// x * 100 * 10^places rounded half up, from x's exact value (as present.py rounds: toFixed
// on x * 100 would round twice).
function scaledPercent(x, places) {
  const [num, den] = exactParts(x);
  const scaled = num * 100n * 10n ** BigInt(places);
  return (2n * scaled + den) / (2n * den);
}

function fixed(n, places) {
  if (places === 0) return n.toString();
  const digits = n.toString().padStart(places + 1, "0");
  return `${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

// A mine probability as a percentage to ``places`` decimals: "0%" and "100%" only when
// proven (the API gives exactly 0 or 1 only then), and rounding never turns an unproven
// value into either. The API writes a probability below the smallest double as a string
// ("3e-400"): never proven, it reads "<0.0001%".
export function percent(p, places) {
  if (p === 0) return "0%";
  if (p === 1) return "100%";
  const n = scaledPercent(Number(p), places);
  const top = 100n * 10n ** BigInt(places);
  if (n < 1n) return `<${fixed(1n, places)}%`;
  if (n >= top) return `>${fixed(top - 1n, places)}%`;
  return `${fixed(n, places)}%`;
}

// The short form on a cell: words for proven cells, one decimal near the ends, else whole.
export function shortPercent(p) {
  if (p === 0) return "safe";
  if (p === 1) return "mine";
  const pct = Number(p) * 100;
  return percent(p, pct < 1 || pct > 99 ? 1 : 0);
}

// The heat map: green at 0, yellow at 1/2, red at 1, linear between (present.heat_rgb).
export function colour(p) {
  const x = Number(p);
  const [from, to, t] = x <= 0.5 ? [HEAT_STOPS[0], HEAT_STOPS[1], 2 * x]
    : [HEAT_STOPS[1], HEAT_STOPS[2], 2 * x - 1];
  const [r, g, b] = from.map((a, i) => Math.floor(a + (to[i] - a) * t + 0.5));
  return `rgb(${r}, ${g}, ${b})`;
}

// A big count as mantissa and power of ten (the digits cut, not rounded).
export function shortCount(text) {
  const digits = String(text);
  if (digits.length <= 12) return digits;
  return `${digits[0]}.${digits.slice(1, 3)} × 10^${digits.length - 1}`;
}

// A cell as the library and the command line write it: (2, 1) on grids, else its index or
// label.
export function cellText(cell) {
  return Array.isArray(cell) ? `(${cell.join(", ")})` : String(cell);
}
