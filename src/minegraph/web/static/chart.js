// The Review view's win-chance line: for every guess the coach judged, the chance of winning
// after the click played (a point coloured by its label) and the best alternative's (a tick
// above it when the guess lost something), over the game's clicks.
import { cellText, percent } from "./present.js";

const SVG = "http://www.w3.org/2000/svg";
export const CHART = { width: 600, height: 120, pad: 10, left: 44 };
export const LABEL_COLOURS = { best: "#2e8b2e", inferior: "#d98200", avoidable: "#c62828" };

// The words a point's tooltip and the click line use for the coach's verdict.
export function verdictText(item) {
  if (item.win_probability === null || item.win_probability === undefined) return "";
  const how = item.win_probability_exact ? "exact" : `±${percent(item.win_probability_error, 1)}`;
  const words = { best: "a best guess", inferior: "not the best guess",
    avoidable: "an avoidable guess" }[item.label] || item.label;
  const chance = `win chance ${percent(item.win_probability, 1)} (${how})`;
  if (item.label === "best" || item.best_cell === null) return `${words} · ${chance}`;
  return `${words} · ${chance}, ${percent(item.win_probability_best, 1)} by `
    + `${cellText(item.best_cell)} · lost ${percent(item.win_probability_lost, 1)}`;
}

// Where each judged click goes: x by its place among ``count`` clicks, y by the chance.
export function chartPoints(items) {
  const { width, height, pad, left } = CHART;
  const span = Math.max(1, items.length - 1);
  const y = (p) => pad + (1 - Number(p)) * (height - 2 * pad);
  const points = [];
  items.forEach((item, k) => {
    if (item.win_probability === null || item.win_probability === undefined) return;
    points.push({ k, x: left + (k / span) * (width - left - pad), y: y(item.win_probability),
      yBest: y(item.win_probability_best ?? item.win_probability), label: item.label,
      title: `click ${k + 1}: ${verdictText(item)}` });
  });
  return points;
}

function node(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

// Draw the line into ``svg``; ``pick(k)`` shows click k when its point is chosen. Hidden when
// no guess was judged.
export function drawChart(svg, items, pick) {
  const points = chartPoints(items);
  svg.replaceChildren();
  svg.toggleAttribute("hidden", points.length === 0);   // an SVG element has no .hidden
  if (!points.length) return;
  const { width, height, pad, left } = CHART;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  for (const p of [0, 0.5, 1]) {
    const y = pad + (1 - p) * (height - 2 * pad);
    svg.append(node("line", { x1: left, x2: width - pad, y1: y, y2: y, class: "chart-grid" }));
    const label = node("text", { x: left - 6, y: y + 4, class: "chart-axis" });
    label.textContent = `${100 * p}%`;
    svg.append(label);
  }
  svg.append(node("polyline", { class: "chart-line",
    points: points.map((p) => `${p.x},${p.y}`).join(" ") }));
  for (const p of points) {
    if (p.yBest < p.y - 0.5) {
      svg.append(node("line", { x1: p.x, x2: p.x, y1: p.yBest, y2: p.y, class: "chart-lost" }));
    }
    const dot = node("circle", { cx: p.x, cy: p.y, r: 6, fill: LABEL_COLOURS[p.label] || "#777",
      class: "chart-point", tabindex: 0, role: "button", "aria-label": p.title });
    const title = node("title", {});
    title.textContent = p.title;
    dot.append(title);
    dot.addEventListener("click", () => pick(p.k));
    dot.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") pick(p.k);
    });
    svg.append(dot);
  }
}
