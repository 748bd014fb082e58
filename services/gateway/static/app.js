// The page: start a job (picture or typed-in puzzle), follow it, show and correct it.

import {
  FINAL_STATES, createImageJob, createPuzzleJob, deleteJob, resetCorrections, imageUrl,
  overlayUrl, postCorrections, putCorrections, waitForJob,
} from "./api.js";
import {
  addCloseUps, clueEditor, nonogramPicture, parseClues, readingEditor, solutionTable, solutionText,
  suspectList,
} from "./grids.js";
import { showHints } from "./hint.js";
import { shrinkPicture } from "./shrink.js";
import { correctionSteps, isEmpty } from "./steps.js";

const $ = (selector) => document.querySelector(selector);

const STATUS_TEXT = {
  queued: "Waiting in the queue…",
  recognizing: "Reading the picture…",
  solving: "Solving…",
  solved: "Solved.",
  needs_review: "Done, but the reading needs your check.",
  failed: "It did not work.",
};
// A typed-in puzzle has no reading: its doubts are the puzzle's own.
const TYPED_STATUS_TEXT = { ...STATUS_TEXT, needs_review: "Done, but the puzzle needs your check." };
const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

// The verdict in words for this job: typed puzzles have no reading to check, and
// marked cells are mentioned only when there are some.
function verdictText(result, fromPicture) {
  const changed = result.suspects.filter((s) => s.read !== s.chosen).length;
  const marked = result.suspects.length;
  // A reading is counted once however many doubts name it, as the grid marks it once.
  const unsure = new Set(result.uncertain.map((u) => `${u.what},${u.row},${u.col}`)).size;
  const as = fromPicture ? "read" : "typed";
  const parts = [];
  if (result.verdict === "unique") parts.push("The solution is unique.");
  if (result.verdict === "multiple") {
    parts.push(`More than one solution fits the puzzle as ${as}; two of them are shown, `
               + "their differences underlined.");
    if (fromPicture) parts.push("A digit misread or missed by the reader can cause this.");
  }
  if (result.verdict === "none") {
    parts.push(`No solution fits the puzzle as ${as}.`);
    if (marked) parts.push(`Check the ${plural(marked, "reading")} marked in red.`);
  }
  if (result.verdict === "unknown") parts.push("The solver ran out of time before it could finish.");
  if (changed) {
    parts.push(`To make it solvable the solver changed ${plural(changed, "reading")}, `
               + "marked in red below; check them.");
  }
  if (unsure) parts.push(`${plural(unsure, "reading")} (amber) ${unsure === 1 ? "was" : "were"} hard to be sure of.`);
  return parts.join(" ");
}

// Problem details name sizes in bytes; people read megabytes.
const readableSizes = (text) => text.replace(/(\d{5,}) bytes/g,
  (_, bytes) => `${(Number(bytes) / 1048576).toFixed(1).replace(/\.0$/, "")} MB`);
const STEP_ORDER = ["queued", "recognizing", "solving", "done"];

let following = null; // AbortController of the job on show
let editor = null; // the reading editor of the job on show
let shownJob = null;
let steps = null; // the undo and redo steps of the job on show
let said = ""; // what the step the person took did, said before the job's state
let changing = false; // a change of the corrections is on its way

// Bring a part of the job into view and give it the keyboard focus.
function bringIntoView(node) {
  node.scrollIntoView({ block: "start" });
  node.focus({ preventScroll: true });
}

function showJobSection() {
  $("#job").hidden = false;
  $(".skip").hidden = false;
}

function showError(error) {
  showJobSection();
  const box = $("#error");
  box.textContent = readableSizes(error.message || String(error));
  box.hidden = false;
  bringIntoView(box);
}

function clearError() {
  $("#error").hidden = true;
  $("#error").textContent = "";
}

function showProgress(job, fromPicture) {
  const status = FINAL_STATES.has(job.status) ? "done" : job.status;
  const at = STEP_ORDER.indexOf(status);
  const failed = job.status === "failed";
  for (const step of $("#steps").children) {
    const index = STEP_ORDER.indexOf(step.dataset.step);
    step.hidden = step.dataset.step === "recognizing" && !fromPicture;
    // A failed job ends on a step of its own: nothing is shown as done.
    step.className = failed ? (step.dataset.step === "done" ? "failed" : "")
      : index < at || status === "done" ? "done" : "";
    if (step.dataset.step === "done") step.textContent = failed ? "Failed" : "Done";
    if (index === at) step.setAttribute("aria-current", "step");
    else step.removeAttribute("aria-current");
  }
  // Corrections in force are counted as the steps that led to them (an undone one is not
  // counted); back at the original reading there are none.
  const corrected = !isEmpty(job.corrections);
  const count = steps?.count() || job.revision - 1;
  const revision = corrected && count > 0 ? ` (correction ${count})` : "";
  const words = fromPicture ? STATUS_TEXT : TYPED_STATUS_TEXT;
  $("#status").textContent = said + words[job.status] + revision;
  $("#job").setAttribute("aria-busy", String(!FINAL_STATES.has(job.status)));
  const ended = FINAL_STATES.has(job.status);
  $("#solve-again").disabled = !ended;
  $("#undo").disabled = !ended;
  showSteps(ended);
}

// Undo and redo as far as the steps go. While the job runs they wait (aria-disabled, so
// the button pressed keeps the keyboard focus); a button with nothing left to do hands the
// focus to the other one, rather than to nowhere.
function showSteps(ended) {
  const [undo, redo] = [$("#undo-step"), $("#redo-step")];
  const focused = document.activeElement;
  undo.disabled = !steps?.canUndo();
  redo.disabled = !steps?.canRedo();
  redo.hidden = !steps?.canRedo();
  for (const button of [undo, redo]) {
    if (ended || button.disabled) button.removeAttribute("aria-disabled");
    else button.setAttribute("aria-disabled", "true");
  }
  if (focused === undo && undo.disabled && !redo.disabled) redo.focus();
  if (focused === redo && redo.disabled && !undo.disabled) undo.focus();
}

// The field of the reading that has the focus, as a selector that finds it again in the
// reading drawn anew (null when the focus is elsewhere).
function fieldPlace(node) {
  if (!$("#reading").contains(node) || !node.matches("input")) return null;
  const { cell, sum, line, index } = node.dataset;
  if (sum) return `input[data-sum="${sum}"]`;
  if (cell) return `input[data-cell="${cell}"]`;
  if (line) return `input[data-line="${line}"][data-index="${index}"]`;
  return null;
}

function showReview(job) {
  $("#review").hidden = !job.reading;
  if (!job.reading) return;
  const { corrections } = job;
  $("#undo").hidden = isEmpty(corrections);
  // A nonogram's reading is its clues; every other kind's is its grid.
  editor = job.reading.kind === "nonogram" ? clueEditor(job) : readingEditor(job);
  const place = fieldPlace(document.activeElement);
  $("#reading").replaceChildren(editor.element);
  if (place) editor.element.querySelector(place)?.focus({ preventScroll: true });
  // The help for this puzzle's kind only (and for a page written on, if it is one).
  const fits = new Set([job.reading.kind]);
  if (editor.element.querySelector("fieldset.cell-kind:not([hidden])")) fits.add("written");
  for (const part of $("#review-help").querySelectorAll("[data-for]")) {
    part.hidden = !part.dataset.for.split(" ").some((kind) => fits.has(kind));
  }
  const suspects = suspectList(job, editor.focus);
  $("#suspects").replaceChildren(suspects);
  if (!job.image_deleted) addCloseUps(suspects, job.reading, imageUrl(job));
}

// The solved picture to download: PNG as drawn, JPEG and WebP smaller.
const DOWNLOADS = { "#download-overlay": "png", "#download-jpeg": "jpg", "#download-webp": "webp" };
function showDownloads(job, shown) {
  for (const [link, type] of Object.entries(DOWNLOADS)) {
    $(link).hidden = !shown;
    if (!shown) continue;
    $(link).href = overlayUrl(job, type);
    $(link).download = `gridsight-${job.id.slice(0, 8)}.${type}`;
  }
}

function showPicture(job, fromPicture) {
  const figure = $("#picture");
  // A failed job's picture is deleted at once (and any picture when asked): say so.
  $("#picture-deleted").hidden = !(fromPicture && job.image_deleted);
  figure.hidden = !fromPicture || Boolean(job.image_deleted);
  if (figure.hidden) {
    showDownloads(job, false);
    return;
  }
  const img = $("#overlay");
  const solved = Boolean(job.result?.solution && job.reading?.cell_quads);
  // The picture's own size reserves its place before it arrives: the page does not jump.
  const [width, height] = job.reading?.image_size || [];
  if (width && height) {
    img.width = width;
    img.height = height;
  } else {
    img.removeAttribute("width");
    img.removeAttribute("height");
  }
  img.onerror = () => {
    img.onerror = null;
    img.src = imageUrl(job);
  };
  img.src = solved ? overlayUrl(job) : imageUrl(job);
  showDownloads(job, solved);
  img.alt = solved ? "Your picture with the solution drawn in" : "Your picture";
  $("#picture-caption").textContent = solved
    ? "The solution drawn into your picture, in blue. Red: readings the solver changed "
      + "(with the digit it chose) or that are in conflict; amber: unsure readings."
    : "Your picture.";
}

function showResult(job, fromPicture) {
  const { result } = job;
  // A failed job has no solution to show: no empty "Solution" heading.
  $("#result").hidden = !result && (!fromPicture || job.status === "failed");
  $("#verdict").textContent = result ? verdictText(result, fromPicture) : "";
  const conflicts = (result?.conflicts || []).map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  });
  $("#conflicts").replaceChildren(...conflicts);
  $("#conflicts").hidden = !conflicts.length;
  // What the reader doubted: the picture looks like another kind than asked, and so on.
  const warnings = (job.reading?.warnings || []).map((text) => {
    const item = document.createElement("li");
    item.textContent = text[0].toUpperCase() + text.slice(1) + ".";
    return item;
  });
  $("#warnings").replaceChildren(...warnings);
  $("#warnings").hidden = !warnings.length;
  // "Where did I go wrong?": the person's digits that contradict the solution.
  const mistakes = (result?.wrong_entries || []).map((w) => {
    const item = document.createElement("li");
    item.textContent = `Row ${w.row + 1}, column ${w.col + 1}: you wrote ${w.written}, `
      + `the answer is ${w.correct}.`;
    return item;
  });
  $("#wrong-entries").replaceChildren(...mistakes);
  $("#wrong-entries").hidden = !mistakes.length;
  showPicture(job, fromPicture);
  const solution = result?.solution;
  $("#result-actions").hidden = !solution;
  if (!solution) showDownloads(job, false);
  if (!solution) $("#solution").replaceChildren();
  else if (result.kind === "nonogram") {
    const pictures = [nonogramPicture(solution, result.puzzle)];
    if (result.other_solution) {
      // "Two of them are shown": the second one too, its ids kept unique.
      const other = nonogramPicture(result.other_solution, result.puzzle);
      for (const node of [other, ...other.querySelectorAll("[id]")]) {
        if (node.id) node.id += "-other";
      }
      other.querySelector("[role=img]")?.setAttribute("aria-label", "Another solution");
      pictures.push(other);
    }
    $("#solution").replaceChildren(...pictures);
  }
  else if (result.other_solution) {
    $("#solution").replaceChildren(
      solutionTable(result, result.solution, "One solution", result.other_solution),
      solutionTable(result, result.other_solution, "Another solution", result.solution));
  } else $("#solution").replaceChildren(solutionTable(result, solution));
  showHints(job);
  if ($("#veil").checked) applyVeil();
}

// `stay`: the person stepped back or forward and goes on where they are (the focus stays).
function show(job, knownPicture, stay = false) {
  // A job followed from the address alone: only a picture has a reading.
  const fromPicture = knownPicture ?? Boolean(job.reading);
  shownJob = job;
  if (steps?.id !== job.id) steps = correctionSteps(job.id);
  showProgress(job, fromPicture);
  $("#job-actions").hidden = !FINAL_STATES.has(job.status);
  $("#failed-actions").hidden = job.status !== "failed";
  $("#delete-job").textContent = job.image_deleted || !fromPicture
    ? "Delete this job from the server" : "Delete this job and its picture from the server";
  if (FINAL_STATES.has(job.status)) {
    showReview(job);
    showResult(job, fromPicture);
    if (job.status === "failed") showError(new Error(job.error || "The job failed."));
    else if (!stay) bringIntoView($("#job"));
  }
}

// Follow a job from its creation to a final state; a newer job replaces it.
async function follow(makeJob, { fromPicture, keepShown = false, step = "" }) {
  following?.abort();
  const controller = new AbortController();
  following = controller;
  said = step;
  clearError();
  showJobSection();
  $("#status").textContent = "Sending…";
  $("#job").setAttribute("aria-busy", "true");
  if (!keepShown) {
    for (const step of $("#steps").children) {
      step.className = "";
      step.removeAttribute("aria-current");
    }
    $("#review").hidden = true;
    $("#result").hidden = true;
    $("#job-actions").hidden = true;
    $("#failed-actions").hidden = true;
    $("#picture-deleted").hidden = true;
    editor = null;
  }
  try {
    const created = await makeJob();
    // The address names the job, so a reload or a shared link shows it again; a new job
    // is a new history entry, so the browser's Back goes to the one before.
    const address = `#job=${encodeURIComponent(created.id)}`;
    if (location.hash !== address) history.pushState(null, "", address);
    await waitForJob(created.id, (job) => show(job, fromPicture, Boolean(step)),
                     controller.signal);
  } catch (error) {
    if (error.name === "AbortError") return; // a newer job took over the page
    $("#status").textContent = STATUS_TEXT.failed;
    $("#job").setAttribute("aria-busy", "false");
    $("#solve-again").disabled = false;
    showSteps(Boolean(shownJob));
    showError(error);
  }
}

function solvePicture(file) {
  if (!file) return;
  if (!file.type.startsWith("image/")) {
    following?.abort();
    $("#status").textContent = "";
    $("#result").hidden = true;
    $("#review").hidden = true;
    showError(new Error(`${file.name} is not a picture; choose a photo or screenshot.`));
    return;
  }
  const kind = $("#kind").value;
  follow(async () => createImageJob(await shrinkPicture(file), kind), { fromPicture: true });
  $("#job").scrollIntoView({ block: "start" });
}

function wirePictureInputs() {
  for (const input of [$("#file"), $("#camera")]) {
    input.addEventListener("change", () => {
      solvePicture(input.files[0]);
      input.value = ""; // choosing the same file again starts a new job
    });
  }
  const zone = $("#drop-zone");
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("dragging");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
  // A picture dropped anywhere on the page is taken, not opened in place of the page.
  const hasFiles = (event) => event.dataTransfer?.types?.includes("Files");
  document.addEventListener("dragover", (event) => {
    if (hasFiles(event)) event.preventDefault();
  });
  document.addEventListener("drop", (event) => {
    if (!hasFiles(event) || zone.contains(event.target)) return;
    event.preventDefault();
    solvePicture(event.dataTransfer.files[0]);
  });
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("dragging");
    solvePicture(event.dataTransfer.files[0]);
  });
  document.addEventListener("paste", (event) => {
    if (event.target.closest?.("input, textarea")) return;
    const item = [...event.clipboardData.items].find((i) => i.type.startsWith("image/"));
    if (item) solvePicture(item.getAsFile());
  });
  $("#picture-form").addEventListener("submit", (event) => event.preventDefault());
}

function wireTypedForms() {
  $("#sudoku-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("#sudoku-text").value.trim();
    follow(() => createPuzzleJob(text, "sudoku"), { fromPicture: false });
  });
  $("#killer-form").addEventListener("submit", (event) => {
    event.preventDefault();
    let puzzle;
    try {
      puzzle = JSON.parse($("#killer-text").value);
    } catch (error) {
      showError(new Error(`The killer sudoku is not valid JSON: ${error.message}`));
      return;
    }
    if (puzzle && typeof puzzle === "object" && !puzzle.kind) puzzle.kind = "killer";
    follow(() => createPuzzleJob(puzzle), { fromPicture: false });
  });
  $("#nonogram-form").addEventListener("submit", (event) => {
    event.preventDefault();
    let puzzle;
    try {
      puzzle = {
        kind: "nonogram",
        rows: parseClues($("#nonogram-rows").value, "Row clues"),
        cols: parseClues($("#nonogram-cols").value, "Column clues"),
      };
    } catch (error) {
      $("#job").hidden = false;
      showError(error);
      return;
    }
    follow(() => createPuzzleJob(puzzle), { fromPicture: false });
  });
}

function wireReview() {
  $("#solve-again").addEventListener("click", () => {
    if (!editor || !shownJob) return;
    clearError();
    let fixes;
    try {
      fixes = editor.corrections();
    } catch (error) {
      showError(error);
      return;
    }
    if (!Object.values(fixes).some((list) => list.length)) {
      showError(new Error(fixes.clues
        ? "Type a line's clue to correct it (or retype it to confirm it), then solve again."
        : "Type into a cell to correct it (or retype a digit to confirm it), then solve "
          + "again."));
      return;
    }
    const before = shownJob.corrections;
    changeCorrections(async (id, history) => {
      const created = await postCorrections(id, fixes);
      history.took(before);
      return created;
    });
  });
  $("#undo").addEventListener("click", () => {
    const before = shownJob?.corrections;
    changeCorrections(async (id, history) => {
      const created = await resetCorrections(id);
      history.took(before); // going back to the original can be undone too
      return created;
    });
  });
  $("#undo-step").addEventListener("click", undoStep);
  $("#redo-step").addEventListener("click", redoStep);
  document.addEventListener("keydown", undoKeys);
}

// Send a change of the shown job's corrections and follow the revision it makes.
function changeCorrections(send, step = "") {
  if (!shownJob) return;
  clearError();
  const { id } = shownJob;
  const history = steps; // the steps of this job, whatever is shown when the answer comes
  changing = true; // one change at a time: a second Ctrl+Z waits for the first
  follow(() => send(id, history), { fromPicture: true, keepShown: true, step })
    .finally(() => { changing = false; });
}

// Take back the last step (undo) or make it again (redo): the set of corrections from
// before (after) it goes to the server in place of those in force.
function takeStep(back) {
  const ready = back ? steps?.canUndo() : steps?.canRedo();
  if (changing || !ready || !FINAL_STATES.has(shownJob?.status)) return;
  const current = shownJob.corrections;
  changeCorrections(async (id, history) => {
    const created = await putCorrections(id, back ? history.undoTarget() : history.redoTarget());
    if (back) history.undone(current);
    else history.redone(current);
    return created;
  }, back ? "Undone. " : "Redone. ");
}
const undoStep = () => takeStep(true);
const redoStep = () => takeStep(false);

// Ctrl+Z (Cmd+Z) takes back the last correction, Ctrl+Shift+Z or Ctrl+Y makes it again;
// in a text box the person has typed into, the keys undo the typing, as they always do.
function undoKeys(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || !shownJob || $("#job").hidden
      || $("#review").hidden) {
    return;
  }
  const key = event.key.toLowerCase();
  const redo = key === "y" || (key === "z" && event.shiftKey);
  if (key !== "z" && !redo) return;
  const field = event.target.closest?.("input, textarea, select, [contenteditable]");
  if (field && (!$("#reading").contains(field) || field.classList.contains("edited"))) return;
  event.preventDefault();
  if (redo) redoStep();
  else undoStep();
}

// Hiding the solution: found digits are veiled, and each one shows when its cell is
// clicked (or focused and Enter pressed); the picture shows the upload meanwhile.
function applyVeil() {
  const on = $("#veil").checked;
  $("#solution").classList.toggle("veiled", on);
  // One tab stop for the hidden digits (the first); arrow keys move between them.
  [...$("#solution").querySelectorAll("td.found")].forEach((cell, i) => {
    cell.classList.remove("shown");
    if (on) {
      cell.tabIndex = i === 0 ? 0 : -1;
      cell.setAttribute("role", "button");
      cell.setAttribute("aria-label", "Hidden digit: reveal it");
    } else {
      cell.removeAttribute("tabindex");
      cell.removeAttribute("role");
      cell.removeAttribute("aria-label");
    }
  });
  if (shownJob?.reading && shownJob.result?.solution && $("#overlay").src) {
    $("#overlay").src = on ? imageUrl(shownJob) : overlayUrl(shownJob);
  }
}

const STEPS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

// Arrow keys between the cells of a veiled solution, to the next hidden digit that way.
function moveInVeil(event, cell) {
  const [dr, dc] = STEPS[event.key];
  const table = cell.closest("table");
  const rows = [...table.rows];
  let r = cell.parentElement.rowIndex;
  let c = cell.cellIndex;
  for (;;) {
    r += dr;
    c += dc;
    const next = rows[r]?.cells[c];
    if (!next) return;
    if (next.tabIndex >= -1 && next.classList.contains("found")) {
      event.preventDefault();
      cell.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
      return;
    }
  }
}

function reveal(event) {
  const cell = event.target.closest("td.found");
  if (!cell || !$("#veil").checked) return;
  if (event.type === "keydown" && STEPS[event.key]) {
    moveInVeil(event, cell);
    return;
  }
  if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
  event.preventDefault();
  cell.classList.add("shown");
  cell.removeAttribute("aria-label");
  cell.removeAttribute("role");
}

function wireResultActions() {
  $("#veil").addEventListener("change", applyVeil);
  $("#solution").addEventListener("click", reveal);
  $("#solution").addEventListener("keydown", reveal);
  $("#copy-solution").addEventListener("click", async () => {
    const text = solutionText(shownJob.result);
    try {
      await navigator.clipboard.writeText(text);
      $("#status").textContent = $("#veil").checked
        ? "The whole solution was copied as text, the hidden digits too."
        : "The solution was copied as text.";
    } catch {
      showError(new Error("The browser did not allow copying; the solution as text is:\n"
                          + text));
    }
  });
  $("#delete-job").addEventListener("click", async () => {
    if (!shownJob) return;
    clearError();
    try {
      await deleteJob(shownJob.id);
    } catch (error) {
      showError(error);
      return;
    }
    following?.abort();
    steps?.forget();
    history.replaceState(null, "", location.pathname);
    for (const part of ["#review", "#result", "#job-actions"]) $(part).hidden = true;
    shownJob = null;
    editor = null;
    // #status is a live region: the change is read out.
    $("#status").textContent = "Deleted: the job and its picture are no longer on the server.";
  });
  const startOver = () => {
    following?.abort();
    history.replaceState(null, "", location.pathname);
    $("#job").hidden = true;
    $(".skip").hidden = true;
    shownJob = null;
    editor = null;
    window.scrollTo(0, 0);
    $("#file").focus();
  };
  $("#solve-another").addEventListener("click", startOver);
  $("#try-another").addEventListener("click", startOver);
}

// Enter in the reading solves again; a focused reading shows its details below the grid
// (touch screens have no hover).
function wireReadingKeys() {
  $("#reading").addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !event.target.matches("input")) return;
    event.preventDefault();
    $("#solve-again").click();
  });
  $("#reading").addEventListener("focusin", (event) => {
    const label = event.target.getAttribute("aria-label") || "";
    const where = event.target.dataset.where || label.split(",").slice(0, 2).join(",");
    $("#cell-info").textContent = event.target.dataset.notes
      ? `${where}: ${event.target.dataset.notes}` : "";
  });
}

function followFromAddress() {
  const id = new URLSearchParams(location.hash.slice(1)).get("job");
  if (id && id !== shownJob?.id) follow(async () => ({ id }), { fromPicture: null });
  else if (!id && shownJob) {
    // Back before the first job: the page as it was, with no job on show.
    following?.abort();
    $("#job").hidden = true;
    $(".skip").hidden = true;
    shownJob = null;
    editor = null;
  }
}
// A #job= typed or pasted into the address bar shows that job.
window.addEventListener("hashchange", followFromAddress);

wirePictureInputs();
wireTypedForms();
wireReview();
wireResultActions();
wireReadingKeys();
followFromAddress();
