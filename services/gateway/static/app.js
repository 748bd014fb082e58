// The page: start a job (picture or typed-in puzzle), follow it, show and correct it.

import {
  FINAL_STATES, createImageJob, createPuzzleJob, imageUrl, overlayUrl, postCorrections,
  waitForJob,
} from "./api.js";
import {
  nonogramPicture, parseClues, readingEditor, solutionTable, suspectList,
} from "./grids.js";

const $ = (selector) => document.querySelector(selector);

const STATUS_TEXT = {
  queued: "Waiting in the queue…",
  recognizing: "Reading the picture…",
  solving: "Solving…",
  solved: "Solved.",
  needs_review: "Done, but the reading needs your check.",
  failed: "It did not work.",
};
const VERDICTS = {
  unique: "The solution is unique.",
  multiple: "More than one solution fits; this is one of them. Check the reading.",
  none: "No solution fits the puzzle as read. Check the marked cells.",
  unknown: "The solver ran out of time before it could finish.",
};
const STEP_ORDER = ["queued", "recognizing", "solving", "done"];

let following = null; // AbortController of the job on show
let editor = null; // the reading editor of the job on show
let shownJob = null;

function showError(error) {
  const box = $("#error");
  box.textContent = error.message || String(error);
  box.hidden = false;
}

function clearError() {
  $("#error").hidden = true;
  $("#error").textContent = "";
}

function showProgress(job, fromPicture) {
  const status = FINAL_STATES.has(job.status) ? "done" : job.status;
  const at = STEP_ORDER.indexOf(status);
  for (const step of $("#steps").children) {
    const index = STEP_ORDER.indexOf(step.dataset.step);
    step.hidden = step.dataset.step === "recognizing" && !fromPicture;
    step.className = index < at || status === "done" ? "done" : "";
    if (index === at) step.setAttribute("aria-current", "step");
    else step.removeAttribute("aria-current");
  }
  const revision = job.revision > 1 ? ` (correction ${job.revision - 1})` : "";
  $("#status").textContent = STATUS_TEXT[job.status] + revision;
  $("#job").setAttribute("aria-busy", String(!FINAL_STATES.has(job.status)));
  $("#solve-again").disabled = !FINAL_STATES.has(job.status);
  if (job.status === "failed") showError(new Error(job.error || "The job failed."));
}

function showReview(job) {
  $("#review").hidden = !job.reading;
  if (!job.reading) return;
  editor = readingEditor(job);
  $("#reading").replaceChildren(editor.element);
  $("#suspects").replaceChildren(suspectList(job, editor.focusCell));
}

function showPicture(job, fromPicture) {
  const figure = $("#picture");
  figure.hidden = !fromPicture;
  if (!fromPicture) return;
  const img = $("#overlay");
  const solved = Boolean(job.result?.solution && job.reading?.cell_quads);
  img.onerror = () => {
    img.onerror = null;
    img.src = imageUrl(job);
  };
  img.src = solved ? overlayUrl(job) : imageUrl(job);
  img.alt = solved ? "Your picture with the missing digits drawn in blue" : "Your picture";
  $("#picture-caption").textContent = solved
    ? "The solution drawn into your picture. Red outlines: readings the solver changed; "
      + "amber: unsure readings."
    : "Your picture.";
}

function showResult(job, fromPicture) {
  const { result } = job;
  $("#result").hidden = !result && !fromPicture;
  // Solved: the message repeats the verdict; failed: the error box already shows it.
  const message = result?.status === "needs_review" ? result.message : "";
  $("#verdict").textContent = result
    ? [VERDICTS[result.verdict] || "", message].filter(Boolean).join(" ") : "";
  const conflicts = (result?.conflicts || []).map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  });
  $("#conflicts").replaceChildren(...conflicts);
  $("#conflicts").hidden = !conflicts.length;
  showPicture(job, fromPicture);
  const solution = result?.solution;
  if (!solution) $("#solution").replaceChildren();
  else if (result.kind === "nonogram") $("#solution").replaceChildren(nonogramPicture(solution));
  else $("#solution").replaceChildren(solutionTable(result));
}

function show(job, knownPicture) {
  // A job followed from the address alone: only a picture has a reading.
  const fromPicture = knownPicture ?? Boolean(job.reading);
  shownJob = job;
  showProgress(job, fromPicture);
  if (FINAL_STATES.has(job.status)) {
    showReview(job);
    showResult(job, fromPicture);
  }
}

// Follow a job from its creation to a final state; a newer job replaces it.
async function follow(makeJob, { fromPicture, keepShown = false }) {
  following?.abort();
  const controller = new AbortController();
  following = controller;
  clearError();
  $("#job").hidden = false;
  $("#status").textContent = "Sending…";
  $("#job").setAttribute("aria-busy", "true");
  if (!keepShown) {
    for (const step of $("#steps").children) {
      step.className = "";
      step.removeAttribute("aria-current");
    }
    $("#review").hidden = true;
    $("#result").hidden = true;
    editor = null;
  }
  try {
    const created = await makeJob();
    // The address names the job, so a reload or a shared link shows it again.
    history.replaceState(null, "", `#job=${encodeURIComponent(created.id)}`);
    await waitForJob(created.id, (job) => show(job, fromPicture), controller.signal);
    // The button pressed was replaced: start keyboard users again from the result.
    if (keepShown && document.activeElement === document.body) $("#job").focus();
  } catch (error) {
    if (error.name === "AbortError") return; // a newer job took over the page
    showError(error);
    $("#job").setAttribute("aria-busy", "false");
  }
}

function solvePicture(file) {
  if (!file) return;
  if (!file.type.startsWith("image/")) {
    $("#job").hidden = false;
    showError(new Error(`${file.name} is not a picture; choose a photo or screenshot.`));
    return;
  }
  const kind = $("#kind").value;
  follow(() => createImageJob(file, kind), { fromPicture: true });
  $("#job").scrollIntoView({ behavior: "smooth", block: "start" });
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
    if (!fixes.cells.length && !fixes.cage_sums.length) {
      showError(new Error("Type into a cell to correct it (or retype a digit to confirm "
                          + "it), then solve again."));
      return;
    }
    const { id } = shownJob;
    follow(() => postCorrections(id, fixes), { fromPicture: true, keepShown: true });
  });
}

function followFromAddress() {
  const id = new URLSearchParams(location.hash.slice(1)).get("job");
  if (id) follow(async () => ({ id }), { fromPicture: null });
}

wirePictureInputs();
wireTypedForms();
wireReview();
followFromAddress();
