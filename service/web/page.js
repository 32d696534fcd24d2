// The page at /: reads the FEN and variant, asks the service (POST /v1/fen/validate,
// POST /v1/fen/batch, GET /v1/board.svg, GET /v1/variants, GET /openapi.json) and shows
// the board, the problems, the detected dialect and the position in every profile.
// Every request it makes answers 200 for any input (the board only once the FEN reads),
// so a bad FEN never shows up as a failed request.
"use strict";

const SQUARE_NAME = /\b([a-l](?:1[0-2]|[1-9]))\b/g;
const SVG_NS = "http://www.w3.org/2000/svg";
const HIGHLIGHT = "#e0442c";
const DEFAULT_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const UNREADABLE = new Set(["fen-syntax", "unknown-variant"]);

const state = { variants: [], profiles: [], orientation: "white", generation: 0, timer: null };

function $(id) { return document.getElementById(id); }

function setStatus(text) { $("status").textContent = text; }

async function getJson(url, options) {
  const response = await fetch(url, options);
  const body = await response.json();
  if (!response.ok) {
    throw new Error(body.detail || `${response.status} from ${url}`);
  }
  return body;
}

function postJson(url, body) {
  return getJson(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

async function loadVariants() {
  const [variants, spec] = await Promise.all([getJson("/v1/variants"), getJson("/openapi.json")]);
  state.variants = variants.variants;
  state.profiles = spec.components.schemas.Profile.enum;
  const list = $("variant-list");
  const names = new Set(["auto"]);
  for (const variant of state.variants) {
    names.add(variant.name);
    names.add(variant.key);
    for (const alias of variant.aliases) names.add(alias);
  }
  for (const name of names) {
    const option = document.createElement("option");
    option.value = name;
    list.appendChild(option);
  }
}

function lookupName(name) {
  return name.toLowerCase().replace(/[\s\-_']/g, "");
}

// "auto": the variant the FEN's shape says. Pockets, check counters and piece letters
// narrow it down; a FEN that is some variant's start position is that variant.
function guessVariant(fen) {
  const text = fen.trim();
  const fields = text.split(/\s+/);
  const placement = fields[0] || "";
  const exact = state.variants.find((v) => v.start_fen === text && !v.random_start);
  if (exact && exact.key !== "standard") return exact;
  const ranks = placement.replace(/\[.*\]$/, "").split("/");
  const pockets = placement.includes("[") || ranks.length === 9 || fields.length > 6 && /^[A-Za-z-]+$/.test(fields[6]);
  const checks = fields.some((field, i) => i > 0 && /^\+?\d+\+\d+$/.test(field));
  const letters = new Set(placement.replace(/\[.*\]$/, "").toLowerCase().replace(/[^a-z]/g, ""));
  const fits = (v) => [...letters].every((letter) => v.pieces.some((piece) => piece.letter === letter));
  const candidates = state.variants.filter((v) => fits(v) && (!pockets || v.pockets) && (!checks || v.check_counters));
  return candidates[0] || state.variants[0];
}

function chosenVariant(fen) {
  const typed = $("variant").value.trim();
  if (typed === "" || lookupName(typed) === "auto") {
    const guess = state.variants.length ? guessVariant(fen) : null;
    return { name: guess ? guess.key : "standard", guessed: true, label: guess ? guess.name : "Standard" };
  }
  return { name: typed, guessed: false, label: typed };
}

function markColumn(fen, column) {
  const marked = $("fen-marked");
  marked.replaceChildren();
  if (!column) return;
  const index = Math.min(column - 1, fen.length);
  const mark = document.createElement("mark");
  mark.className = "column";
  mark.dataset.column = String(column);
  mark.title = `column ${column}`;
  mark.textContent = fen.slice(index, index + 1) || " ";
  marked.append(fen.slice(0, index), mark, fen.slice(index + 1));
}

function squaresNamed(problem) {
  const names = new Set();
  if (problem.square) names.add(problem.square);
  for (const match of (problem.message || "").matchAll(SQUARE_NAME)) names.add(match[1]);
  return names;
}

function showProblems(result) {
  const list = $("problems");
  list.replaceChildren();
  const items = [...result.errors.map((p) => ["error", p]), ...result.warnings.map((p) => ["warning", p])];
  for (const [kind, problem] of items) {
    const item = document.createElement("li");
    item.className = kind;
    item.dataset.code = problem.code;
    const code = document.createElement("code");
    code.textContent = problem.code;
    const where = [];
    if (problem.field) where.push(`field ${problem.field}`);
    if (problem.column) where.push(`column ${problem.column}`);
    item.append(code, `: ${problem.message}` + (where.length ? ` (${where.join(", ")})` : ""));
    list.appendChild(item);
  }
  $("verdict").textContent = result.valid ? "The position is legal." :
    `${result.errors.length} problem(s) found.`;
}

function showDialect(detected) {
  const list = $("dialect");
  list.replaceChildren();
  if (!detected) return;
  for (const [name, value] of Object.entries(detected)) {
    const term = document.createElement("dt");
    term.textContent = name;
    const description = document.createElement("dd");
    description.textContent = value === null ? "none" : String(value);
    description.dataset.name = name;
    list.append(term, description);
  }
}

function copyButton(label, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Copy";
  button.setAttribute("aria-label", label);
  button.addEventListener("click", () => copyText(text()));
  return button;
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    setStatus(`Copied: ${text}`);
  } catch (error) {
    setStatus(`Could not copy (${error.message}); select the text and copy it by hand.`);
  }
}

async function showProfiles(fen, variant, generation) {
  const body = $("profiles").tBodies[0];
  const answers = await Promise.all(state.profiles.map((profile) =>
    postJson("/v1/fen/batch", { operation: "convert", variant, profile, items: [fen] })));
  if (generation !== state.generation) return;
  body.replaceChildren();
  state.profiles.forEach((profile, i) => {
    const result = answers[i].results[0];
    const row = document.createElement("tr");
    row.dataset.profile = profile;
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = profile;
    const cell = document.createElement("td");
    const output = document.createElement("output");
    output.id = `profile-${profile}`;
    output.textContent = result.ok ? result.fen : "(not written: " + result.errors.map((p) => p.code).join(", ") + ")";
    cell.appendChild(output);
    const copy = document.createElement("td");
    if (result.ok) copy.appendChild(copyButton(`Copy ${profile} FEN`, () => output.textContent));
    row.append(name, cell, copy);
    body.appendChild(row);
  });
}

function boardUrl(fen, variant) {
  const query = new URLSearchParams({ fen, variant, orientation: state.orientation });
  return `/v1/board.svg?${query}`;
}

function highlightSquares(svg, names) {
  const layer = svg.querySelector("g.highlights");
  for (const name of names) {
    const target = svg.querySelector(`g.squares [data-square="${name}"]`);
    if (!target || !layer) continue;
    let mark;
    if (target.tagName === "circle") {
      mark = document.createElementNS(SVG_NS, "circle");
      for (const attribute of ["cx", "cy"]) mark.setAttribute(attribute, target.getAttribute(attribute));
      mark.setAttribute("r", "22.5");
    } else {
      mark = document.createElementNS(SVG_NS, "rect");
      for (const attribute of ["x", "y", "width", "height"]) mark.setAttribute(attribute, target.getAttribute(attribute));
    }
    mark.setAttribute("fill", HIGHLIGHT);
    mark.setAttribute("fill-opacity", "0.5");
    mark.setAttribute("stroke", HIGHLIGHT);
    mark.setAttribute("stroke-width", "2.5");
    mark.setAttribute("class", "highlight problem");
    mark.dataset.square = name;
    layer.appendChild(mark);
  }
}

async function showBoard(fen, variant, names, generation) {
  const holder = $("board");
  const url = boardUrl(fen, variant);
  const response = await fetch(url);
  const text = await response.text();
  if (generation !== state.generation) return;
  if (!response.ok) {
    holder.replaceChildren();
    return;
  }
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = document.importNode(parsed.documentElement, true);
  highlightSquares(svg, names);
  holder.replaceChildren(svg);
  $("board-image-link").href = url;
  $("board-image-link").hidden = false;
}

function shareUrl(fen) {
  const query = new URLSearchParams({ fen, variant: $("variant").value.trim() || "auto" });
  if (state.orientation === "black") query.set("orientation", "black");
  return `${location.origin}/?${query}`;
}

function updateLink(fen) {
  const url = shareUrl(fen);
  $("share-link").href = url;
  history.replaceState(null, "", url);
}

async function refresh() {
  const generation = ++state.generation;
  const fen = $("fen").value;
  const chosen = chosenVariant(fen);
  $("variant-used").textContent = chosen.guessed ? `Guessed: ${chosen.label}.` : "";
  updateLink(fen);
  if (!fen.trim()) {
    setStatus("Type or paste a FEN.");
    document.body.dataset.shownFen = fen;
    return;
  }
  setStatus("Reading…");
  try {
    const result = await postJson("/v1/fen/validate", { fen, variant: chosen.name });
    if (generation !== state.generation) return;
    const syntax = result.errors.find((p) => p.code === "fen-syntax");
    markColumn(fen, syntax ? syntax.column : null);
    $("fen").setAttribute("aria-invalid", result.valid ? "false" : "true");
    showProblems(result);
    showDialect(result.detected);
    const readable = !result.errors.some((p) => UNREADABLE.has(p.code));
    const names = new Set();
    for (const problem of [...result.errors, ...result.warnings]) {
      for (const name of squaresNamed(problem)) names.add(name);
    }
    const work = [showProfiles(fen, chosen.name, generation)];
    if (readable) {
      work.push(showBoard(fen, chosen.name, names, generation));
    } else {
      $("board").replaceChildren();
      $("board-image-link").hidden = true;
    }
    await Promise.all(work);
    if (generation === state.generation) setStatus(readable ? "Drawn." : "The FEN cannot be read.");
  } catch (error) {
    if (generation === state.generation) setStatus(`The service failed: ${error.message}`);
  }
  if (generation === state.generation) document.body.dataset.shownFen = fen;
}

function scheduleRefresh() {
  clearTimeout(state.timer);
  state.timer = setTimeout(refresh, 200);
}

async function start() {
  const params = new URLSearchParams(location.search);
  $("fen").value = params.get("fen") || DEFAULT_FEN;
  $("variant").value = params.get("variant") || "auto";
  if (params.get("orientation") === "black") {
    state.orientation = "black";
    $("flip").setAttribute("aria-pressed", "true");
  }
  $("fen").addEventListener("input", scheduleRefresh);
  $("variant").addEventListener("input", scheduleRefresh);
  $("variant").addEventListener("change", scheduleRefresh);
  $("position-form").addEventListener("submit", (event) => { event.preventDefault(); refresh(); });
  $("flip").addEventListener("click", () => {
    state.orientation = state.orientation === "white" ? "black" : "white";
    $("flip").setAttribute("aria-pressed", String(state.orientation === "black"));
    refresh();
  });
  $("copy-link").addEventListener("click", () => copyText($("share-link").href));
  try {
    await loadVariants();
  } catch (error) {
    setStatus(`Could not load the variants: ${error.message}`);
  }
  await refresh();
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
