// Hints on the page: the job's difficulty, a Hint button and Next, each step shown on a
// grid (the cells that prove it outlined, the candidates it removes struck through, the
// digit it places) with its sentence read out to screen readers.

const $ = (selector) => document.querySelector(selector);

function element(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

let state = null; // { jobId, revision, steps, shown }

async function fetchSteps(job) {
  const response = await fetch(`/v1/jobs/${encodeURIComponent(job.id)}/hint?all=true`,
                               { method: "POST" });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.detail || body?.title || response.statusText);
  return body.steps;
}

function ensurePanel() {
  let panel = $("#hints");
  if (panel) return panel;
  if (!document.querySelector('link[href="/static/hint.css"]')) {
    document.head.append(element("link", { rel: "stylesheet", href: "/static/hint.css" }));
  }
  panel = element("section", { id: "hints", className: "hints" }, [
    element("h3", { textContent: "Hints" }),
    element("p", { id: "hint-rating" }),
    element("div", { className: "actions" }, [
      element("button", { id: "hint-first", type: "button", textContent: "Hint" }),
      element("button", { id: "hint-next", type: "button", className: "secondary",
                          textContent: "Next step", disabled: true }),
    ]),
    element("p", { id: "hint-text", className: "hint-text" }),
    element("div", { id: "hint-grid" }),
  ]);
  panel.querySelector("#hint-rating").setAttribute("role", "status");
  panel.querySelector("#hint-text").setAttribute("role", "status");
  panel.querySelector("#hint-text").setAttribute("aria-live", "polite");
  panel.querySelector("#hint-next").setAttribute("aria-controls", "hint-text hint-grid");
  panel.querySelector("#hint-first").setAttribute("aria-controls", "hint-text hint-grid");
  const anchor = $("#result-actions");
  anchor.after(panel);
  panel.querySelector("#hint-first").addEventListener("click", () => showStep(0));
  panel.querySelector("#hint-next").addEventListener("click", () => showStep(state.shown + 1));
  return panel;
}

// The grid as the person has it before step k: givens, their right digits, and what the
// steps before k placed.
function gridBefore(result, steps, k) {
  const n = result.size;
  const grid = result.puzzle.givens
    ? result.puzzle.givens.map((row) => row.slice()) : Array.from({ length: n }, () => Array(n).fill(0));
  (result.entries || []).forEach((row, r) => row.forEach((v, c) => {
    if (v && v === result.solution[r][c]) grid[r][c] = v;
  }));
  for (const step of steps.slice(0, k)) {
    for (const p of step.placements) grid[p.row][p.col] = p.value;
  }
  return grid;
}

function stepGrid(result, grid, step) {
  const n = grid.length;
  const [br, bc] = result.puzzle.box || defaultBox(n);
  const proof = new Set(step.cells.map(([r, c]) => `${r},${c}`));
  const removed = new Map();
  for (const e of step.eliminations) {
    const key = `${e.row},${e.col}`;
    removed.set(key, [...(removed.get(key) || []), e.value]);
  }
  const placed = new Map(step.placements.map((p) => [`${p.row},${p.col}`, p.value]));
  const table = element("table", { className: "grid hint-grid" }, [
    element("caption", { textContent: "The step: proving cells outlined, removed candidates "
                                       + "struck through, the placed digit in green" })]);
  table.style.setProperty("--n", n);
  const body = element("tbody");
  grid.forEach((values, r) => {
    const tr = element("tr");
    values.forEach((value, c) => {
      const key = `${r},${c}`;
      const classes = [];
      if (r % br === 0) classes.push("box-top");
      if (c % bc === 0) classes.push("box-left");
      if (proof.has(key)) classes.push("hint-proof");
      const cell = element("td", { className: classes.join(" ") });
      if (placed.has(key)) {
        cell.classList.add("hint-place");
        cell.append(String(placed.get(key)));
        cell.title = `place ${placed.get(key)}`;
      } else if (value) cell.append(String(value));
      if (removed.has(key)) {
        const digits = removed.get(key);
        cell.append(element("span", { className: "hint-elim",
                                      textContent: digits.join(" ") }));
        cell.title = `remove ${digits.join(", ")}`;
        cell.setAttribute("aria-label", `row ${r + 1}, column ${c + 1}: remove ${digits.join(", ")}`);
      } else if (proof.has(key)) {
        cell.setAttribute("aria-label", `row ${r + 1}, column ${c + 1}: proves the step`);
      }
      tr.append(cell);
    });
    body.append(tr);
  });
  table.append(body);
  return table;
}

function defaultBox(n) {
  let rows = Math.floor(Math.sqrt(n));
  while (n % rows) rows -= 1;
  return [rows, n / rows];
}

function showStep(k) {
  const { steps, result } = state;
  if (!steps.length || k >= steps.length) return;
  state.shown = k;
  const step = steps[k];
  $("#hint-text").textContent = `Step ${k + 1} of ${steps.length}, ${step.technique}: ${step.text}`;
  $("#hint-grid").replaceChildren(stepGrid(result, gridBefore(result, steps, k), step));
  $("#hint-next").disabled = k + 1 >= steps.length;
  $("#hint-first").textContent = "Back to the first hint";
}

let awaited = null; // "job id/revision" whose rating is being waited for

// The rating is worked out after the answer is stored: ask for the job again until the
// result has it (a few seconds for a hard puzzle), while that job is still the one shown.
async function waitForRating(job) {
  const key = `${job.id}/${job.revision}`;
  awaited = key;
  for (let k = 0; k < 60 && awaited === key; k += 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const response = await fetch(`/v1/jobs/${encodeURIComponent(job.id)}`).catch(() => null);
    const fresh = response?.ok ? await response.json().catch(() => null) : null;
    if (awaited !== key || !fresh || fresh.revision !== job.revision) return;
    if (fresh.result?.difficulty) {
      showHints(fresh);
      return;
    }
  }
  if (awaited === key) {
    $("#hint-rating").textContent = "The difficulty and the hints could not be worked out "
      + "in time; the solution above stands.";
  }
}

// While the rating is worked out, the panel says so, its buttons not yet usable.
function showWaiting() {
  const panel = ensurePanel();
  $("#hint-rating").textContent = "Working out the difficulty and the hints…";
  $("#hint-text").textContent = "";
  $("#hint-grid").replaceChildren();
  panel.querySelector("#hint-first").disabled = true;
  $("#hint-next").disabled = true;
}

// Called whenever a job is shown: a panel for solved sudoku and killers, none otherwise.
export async function showHints(job) {
  const result = job?.result;
  const difficulty = result?.difficulty;
  awaited = null;
  if (!difficulty || !result.solution) {
    state = null;
    if (result?.solution && result.verdict === "unique"
        && ["sudoku", "killer"].includes(result.kind)) {
      showWaiting();
      waitForRating(job);
    } else {
      $("#hints")?.remove();
    }
    return;
  }
  const panel = ensurePanel();
  $("#hint-rating").textContent = `Difficulty: ${difficulty.level} (score ${difficulty.score}; `
    + `hardest technique: ${difficulty.hardest}; ${difficulty.steps} steps).`;
  if (state?.jobId === job.id && state.revision === job.revision) return;
  state = { jobId: job.id, revision: job.revision, steps: [], shown: -1, result };
  $("#hint-text").textContent = "";
  $("#hint-grid").replaceChildren();
  $("#hint-next").disabled = true;
  $("#hint-first").textContent = "Hint";
  panel.querySelector("#hint-first").disabled = false;
  try {
    const steps = await fetchSteps(job);
    if (state?.jobId === job.id) state.steps = steps;
  } catch (error) {
    $("#hint-text").textContent = `No hints: ${error.message}`;
    panel.querySelector("#hint-first").disabled = true;
  }
}
