// Grids on the page: the reading (editable), the solved grid, and a nonogram's picture.

const UNSURE_BELOW = 0.9; // a reading less probable than this is shaded

export function defaultBox(n) {
  let rows = Math.floor(Math.sqrt(n));
  while (n % rows) rows -= 1;
  return [rows, n / rows];
}

const argmax = (values) => values.reduce((best, v, i) => (v > values[best] ? i : best), 0);
const shown = (value, symbols) => (value ? symbolText(value, symbols) : "blank");

// A value as the picture printed it (contracts.symbol_text): "hex" prints 10-16 as A-G,
// "letters" prints 1-16 as A-P; otherwise numbers.
export function symbolText(value, symbols) {
  if (symbols === "letters") return String.fromCharCode(64 + value);
  if (symbols === "hex" && value > 9) return String.fromCharCode(55 + value);
  return String(value);
}

// A cell's value as typed: a number, or a letter in the picture's convention (hex: A-G
// for 10-16; letters: A-P for 1-16); NaN when it is neither.
function symbolValue(text, symbols) {
  if (/^\d+$/.test(text)) return Number(text);
  const letter = text.toUpperCase();
  if (!/^[A-Z]$/.test(letter) || !["hex", "letters"].includes(symbols)) return NaN;
  return letter.charCodeAt(0) - (symbols === "hex" ? 55 : 64);
}

// The values a cell takes, in words: "1-9", "1-9 or A-G", "A-P".
function symbolRange(n, symbols) {
  if (symbols === "hex" && n > 9) return `1-9 or A-${symbolText(n, symbols)}`;
  return `${symbolText(1, symbols)}-${symbolText(n, symbols)}`;
}
const key = (row, col) => `${row},${col}`;

function element(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

// Thick lines between boxes, drawn as borders of the cells on their left/top side.
function boxClasses(row, col, n, [boxRows, boxCols]) {
  const classes = [];
  if ((col + 1) % boxCols === 0 && col < n - 1) classes.push("box-right");
  if ((row + 1) % boxRows === 0 && row < n - 1) classes.push("box-bottom");
  return classes;
}

const percent = (p) => `${Math.round(100 * p)}% sure`;
const WALLS = { wall_right: "wall on the right", wall_down: "wall below" };

function describeMark(mark, symbols = null) {
  const { suspect } = mark;
  const as = (value) => (WALLS[suspect.what]
    ? (value ? "present" : "absent") : shown(value, suspect.what === "cell" ? symbols : null));
  if (mark.typed) return `you typed ${as(suspect.read)}; it cannot hold with the rest: check it`;
  if (mark.type === "suspect" && suspect.read === suspect.chosen) {
    // Kept as read, but it cannot hold with the rest: the person decides.
    return `read ${as(suspect.read)} (${percent(suspect.read_prob)}), in conflict: check it`;
  }
  if (mark.type === "suspect") {
    return `read ${as(suspect.read)} (${percent(suspect.read_prob)}), solver chose `
      + `${as(suspect.chosen)}`;
  }
  const others = suspect.alternatives.map((a) => as(a.value)).join(" or ");
  return `unsure: read ${as(suspect.read)} (${percent(suspect.read_prob)})`
    + `${others ? `, could be ${others}` : ""}`;
}

// The marked readings of `whats`, by cell. A suspect in a cell the person corrected is
// what they typed (the solver lists it first when it cannot hold).
function markedCells(job, ...whats) {
  const { result, corrections } = job;
  const typed = new Set((corrections?.cells || []).map((f) => key(f.row, f.col)));
  const marks = new Map();
  for (const [type, list] of [["suspect", result?.suspects], ["uncertain", result?.uncertain]]) {
    for (const suspect of list || []) {
      const here = key(suspect.row, suspect.col);
      if (whats.includes(suspect.what) && !marks.has(here)) {
        marks.set(here, { type, suspect,
                          typed: type === "suspect" && suspect.what === "cell" && typed.has(here) });
      }
    }
  }
  return marks;
}

function numberInput(text, label, maxLength, inputMode = "numeric") {
  const input = element("input", {
    type: "text", inputMode, autocomplete: "off", spellcheck: false, maxLength, value: text,
  });
  input.setAttribute("aria-label", label);
  input.addEventListener("input", () => input.classList.add("edited"));
  input.addEventListener("focus", () => input.select());
  return input;
}

// One tab stop per group of inputs (roving tabindex): Tab enters the group at the input
// used last, arrow keys move within it.
function roving(inputs, start = 0) {
  inputs.forEach((input, i) => {
    input.tabIndex = i === start ? 0 : -1;
    input.addEventListener("focus", () => {
      for (const other of inputs) other.tabIndex = other === input ? 0 : -1;
    });
  });
}

// Arrow keys move between the cells of a grid of inputs.
function arrowKeys(inputs, sums, n) {
  return (event) => {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const move = moves[event.key];
    if (!move) return;
    if (event.target.dataset.sum) { // cage sums: in reading order, any arrow
      const at = sums.indexOf(event.target) + move[0] + move[1];
      if (at >= 0 && at < sums.length) {
        event.preventDefault();
        sums[at].focus();
      }
      return;
    }
    const at = event.target.dataset.cell?.split(",").map(Number);
    if (!at) return;
    const [row, col] = [at[0] + move[0], at[1] + move[1]];
    if (row < 0 || col < 0 || row >= n || col >= n) return;
    event.preventDefault();
    inputs[row][col].focus();
  };
}

// One cell of the reading: the value read (or the person's), shaded when unsure, outlined
// when the solver marked it; its accessible name says all of that.
function readingCell(reading, row, col, fixed, mark, kinds) {
  const probs = reading.cells[row][col];
  const read = kinds?.value ?? argmax(probs);
  const notes = [];
  const cell = element("div", { className: "cell" });
  if (kinds) {
    cell.classList.add(`kind-${kinds.kind}`);
    if (kinds.kind === "entry") notes.push("your own digit");
  }
  if (fixed !== undefined) {
    cell.classList.add("corrected");
    notes.push("corrected by you");
  } else {
    // The person's own digit is as sure as its reading among their digits.
    const sure = kinds?.kind === "entry" ? (reading.entries?.[row]?.[col]?.[read] ?? 1)
      : probs[read];
    if (sure < UNSURE_BELOW) {
      cell.classList.add("unsure");
      cell.style.setProperty("--doubt", (1 - sure).toFixed(2));
      notes.push(`read as ${shown(read, reading.symbols)}, ${Math.round(100 * sure)}% sure`);
    }
  }
  if (mark) {
    cell.classList.add(mark.type);
    notes.push(describeMark(mark, reading.symbols));
  }
  if (reading.walls_right?.[row]?.[col] > 0.5) cell.classList.add("wall-right");
  if (reading.walls_down?.[row]?.[col] > 0.5) cell.classList.add("wall-down");
  const label = [`Row ${row + 1}, column ${col + 1}`, ...notes].join(", ");
  // Letters where the picture printed letters (16x16 grids in hex or A-P).
  const lettered = ["hex", "letters"].includes(reading.symbols);
  const value = fixed ?? read;
  const input = numberInput(value ? symbolText(value, reading.symbols) : "", label,
                            lettered ? 2 : String(reading.size).length,
                            lettered ? "text" : "numeric");
  input.dataset.cell = key(row, col);
  if (kinds) input.dataset.kind = kinds.kind;
  input.dataset.notes = notes.join("; ");
  if (notes.length) cell.title = notes.join("; ");
  cell.append(input);
  return cell;
}

// The grid as the recognizer read it, every cell editable. A cell the person typed into
// is sent as a correction (a certain reading), even when the value typed equals the
// value read: that is how a person confirms a suspect.
// What a cell of a half-solved page holds, as the solver took it or as the person said:
// { kind: "printed" | "entry" | "blank", value }; null on other pages.
function cellKind(job, row, col, fix) {
  const { reading, result } = job;
  if (reading.kind !== "sudoku" || !(reading.cell_kinds || result?.entries)) return null;
  if (fix) return { kind: fix.kind || (fix.value ? "printed" : "blank"), value: fix.value };
  const entry = result?.entries?.[row]?.[col];
  if (entry) return { kind: "entry", value: entry };
  const read = argmax(reading.cells[row][col]);
  return { kind: read ? "printed" : "blank", value: read };
}

const KIND_WORDS = { printed: "a printed digit", entry: "your own digit", blank: "nothing" };

// The switch between printed, entry and blank for the cell last focused (half-solved
// pages): one group of radio buttons under the grid rather than one per cell.
function kindSwitch(inputs) {
  const legend = element("legend", { textContent: "This cell holds" });
  const radios = Object.entries(KIND_WORDS).map(([kind, words]) => {
    const radio = element("input", { type: "radio", name: "cell-kind", value: kind });
    return [radio, element("label", {}, [radio, ` ${words}`])];
  });
  const fieldset = element("fieldset", { className: "cell-kind" },
                           [legend, ...radios.map(([, label]) => label)]);
  let current = inputs[0][0];
  const show = (input) => {
    current = input;
    const [row, col] = input.dataset.cell.split(",").map(Number);
    legend.textContent = `Row ${row + 1}, column ${col + 1} holds`;
    for (const [radio] of radios) radio.checked = radio.value === input.dataset.kind;
  };
  for (const input of inputs.flat()) input.addEventListener("focus", () => show(input));
  for (const [radio] of radios) {
    radio.addEventListener("change", () => {
      const cell = current.parentElement;
      cell.classList.remove(`kind-${current.dataset.kind}`);
      current.dataset.kind = radio.value;
      cell.classList.add(`kind-${radio.value}`);
      if (radio.value === "blank") current.value = "";
      current.classList.add("edited");
    });
  }
  show(current);
  return fieldset;
}

// A cage's sum is edited on purpose: on a touch screen the sum's box lets taps through to
// its cell (a 34 px cell is mostly sum box), and this button, shown while a cell holding a
// sum is chosen, opens the sum instead.
function sumEditButton(inputs, sums, n) {
  const button = element("button", { type: "button", className: "secondary sum-edit" });
  button.hidden = true;
  let target = null;
  const bySum = new Map(sums.map((s) => [s.dataset.sum, s]));
  inputs.flat().forEach((input, i) => {
    input.addEventListener("focus", () => {
      const here = key(Math.floor(i / n), i % n);
      target = bySum.get(here) || null;
      button.hidden = !target;
      if (target) {
        const [row, col] = here.split(",").map(Number);
        button.textContent = `Change the cage sum at row ${row + 1}, column ${col + 1}`;
      }
    });
  });
  button.addEventListener("click", () => target?.focus());
  return button;
}

export function readingEditor(job) {
  const { reading, result, corrections } = job;
  const n = reading.size;
  const box = reading.box || defaultBox(n);
  const fixByCell = new Map((corrections?.cells || []).map((f) => [key(f.row, f.col), f]));
  const fixedCells = new Map([...fixByCell].map(([here, f]) => [here, f.value]));
  const fixedSums = new Map((corrections?.cage_sums || []).map((f) => [key(f.row, f.col), f.value]));
  const cellMarks = markedCells(job, "cell", "wall_right", "wall_down");
  const sumMarks = markedCells(job, "cage_sum");
  const grid = element("div", { className: "grid reading" });
  grid.style.setProperty("--n", n);
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", `Grid as read, ${n} by ${n}; arrow keys move between cells`);
  const inputs = [];
  const sums = [];

  for (let row = 0; row < n; row += 1) {
    inputs.push([]);
    for (let col = 0; col < n; col += 1) {
      const here = key(row, col);
      const cell = readingCell(reading, row, col, fixedCells.get(here), cellMarks.get(here),
                               cellKind(job, row, col, fixByCell.get(here)));
      cell.classList.add(...boxClasses(row, col, n, box));
      inputs[row].push(cell.querySelector("input"));
      grid.append(cell);
    }
  }

  for (const sum of reading.cage_sums || []) {
    const [row, col] = sum.cell;
    const here = key(row, col);
    const value = fixedSums.has(here) ? fixedSums.get(here) : sum.candidates[0]?.value;
    const notes = [];
    const mark = sumMarks.get(here);
    const corrected = fixedSums.has(here);
    if (corrected) notes.push("corrected by you");
    else if (sum.candidates[0] && sum.candidates[0].prob < UNSURE_BELOW) {
      notes.push(`read as ${value}, ${percent(sum.candidates[0].prob)}`);
    }
    if (mark) notes.push(describeMark(mark));
    const input = numberInput(value ? String(value) : "", [`Cage sum in row ${row + 1}, column ${col + 1}`, ...notes]
      .join(", "), 3);
    input.className = ["cage-sum", mark?.type, corrected && "corrected"]
      .filter(Boolean).join(" ");
    input.dataset.sum = here;
    input.dataset.notes = notes.join("; ");
    if (notes.length) input.title = notes.join("; ");
    grid.children[row * n + col].prepend(input);
    sums.push(input);
  }
  grid.addEventListener("keydown", arrowKeys(inputs, sums, n));
  const firstMark = [...cellMarks.values()][0]?.suspect;
  roving(inputs.flat(), firstMark ? firstMark.row * n + firstMark.col : 0);
  roving(sums);
  const withKinds = Boolean(cellKind(job, 0, 0));
  const parts = [grid];
  if (withKinds) {
    // The printed / your own / nothing switch fits a page written on; on a page read as
    // printed only it waits behind a button, for the person who did write on it.
    const switcher = kindSwitch(inputs);
    const written = result?.entries?.some((line) => line.some(Boolean)) || result?.notes?.length
      || (corrections?.cells || []).some((f) => f.kind);
    if (!written) {
      switcher.hidden = true;
      const open = element("button", { type: "button", className: "link kinds-open" },
                           ["Some digits on this page are my own: mark them"]);
      open.addEventListener("click", () => {
        switcher.hidden = false;
        open.hidden = true;
        switcher.querySelector("input")?.focus();
      });
      parts.push(open);
    }
    parts.push(switcher);
  }
  if (sums.length) parts.push(sumEditButton(inputs, sums, n));
  const wrapper = element("div", {}, parts);

  return {
    element: wrapper,
    // Focus the reading a suspect names: a cage sum's own input, else the cell.
    focus(what, row, col) {
      const sum = what === "cage_sum" && sums.find((s) => s.dataset.sum === key(row, col));
      (sum || inputs[row][col]).focus();
    },
    // The corrections the person typed, or an Error naming the cells that are not numbers.
    corrections() {
      const fixes = { cells: [], cage_sums: [] };
      const invalid = [];
      for (const input of [...inputs.flat(), ...sums]) {
        input.removeAttribute("aria-invalid");
        if (!input.classList.contains("edited")) continue;
        const text = input.value.trim();
        const value = text === "" || text === "." ? 0
          : input.dataset.sum ? Number(text) : symbolValue(text, reading.symbols);
        const [row, col] = (input.dataset.cell || input.dataset.sum).split(",").map(Number);
        const isSum = Boolean(input.dataset.sum);
        const ok = Number.isInteger(value) && (isSum ? value >= 1 : value >= 0 && value <= n);
        if (!ok) {
          input.setAttribute("aria-invalid", "true");
          invalid.push(`${isSum ? "cage sum at " : ""}row ${row + 1}, column ${col + 1}`);
        } else if (isSum) {
          fixes.cage_sums.push({ row, col, value });
        } else if (input.dataset.kind) {
          // A half-solved page: the kind goes along; a digit typed into a blank cell is
          // taken as printed unless the person says it is their own.
          const kind = value === 0 ? "blank" : input.dataset.kind === "entry" ? "entry"
            : "printed";
          fixes.cells.push({ row, col, value, kind });
        } else {
          fixes.cells.push({ row, col, value });
        }
      }
      if (invalid.length) {
        throw new Error(`Cells take ${symbolRange(n, reading.symbols)} or nothing, cage sums a `
                        + `whole number; check ${invalid.join("; ")}`);
      }
      return fixes;
    },
  };
}

// A nonogram clue's place, as people count: "row 3, number 2".
const CLUE_LINE = { row_clue: "row", col_clue: "column" };
const clueLineName = (what, line) => `${CLUE_LINE[what]} ${line + 1}`;
const ordinal = (k) => ["first", "second", "third", "fourth", "fifth"][k] || `number ${k + 1}`;

// One line's clue as read: the most probable value of each number; a line with nothing to
// fill shows 0, as printed nonograms do.
function clueText(numbers) {
  return numbers.length ? numbers.map((n) => n.candidates[0]?.value ?? 0).join(" ") : "0";
}

// Why a line of a nonogram is shaded or outlined, in words: its unsure numbers and the
// solver's marks on them.
function clueNotes(numbers, marks) {
  const notes = [];
  numbers.forEach((number, k) => {
    const best = number.candidates[0];
    if (best && best.prob < UNSURE_BELOW && !marks.some((m) => m.suspect.col === k)) {
      notes.push(`its ${ordinal(k)} number read as ${best.value}, ${percent(best.prob)}`);
    }
  });
  for (const mark of marks) notes.push(`its ${ordinal(mark.suspect.col)} number ${describeMark(mark)}`);
  return notes;
}

// A nonogram as read: one text box per row and per column holding its clue ("3 1"). A
// line the person typed into is sent whole, so a number missed or read in excess is mended
// as well as a misread one.
export function clueEditor(job) {
  const { reading, result, corrections } = job;
  const typed = new Map((corrections?.clues || []).map((f) => [`${f.line},${f.index}`, f.clue]));
  const inputs = { row_clue: [], col_clue: [] };
  const lists = Object.entries({ row_clue: reading.row_clues, col_clue: reading.col_clues })
    .map(([what, clues]) => {
      const line = what === "row_clue" ? "row" : "col";
      const marks = [...markedCells(job, what).values()];
      const items = (clues || []).map((numbers, index) => {
        const lineMarks = marks.filter((m) => m.suspect.row === index);
        const fix = typed.get(`${line},${index}`);
        const notes = fix ? ["corrected by you"] : clueNotes(numbers, lineMarks);
        const where = `${clueLineName(what, index)[0].toUpperCase()}${clueLineName(what, index).slice(1)} clue`;
        const input = element("input", {
          type: "text", inputMode: "numeric", autocomplete: "off", spellcheck: false,
          value: fix ? (fix.length ? fix.join(" ") : "0") : clueText(numbers),
        });
        input.setAttribute("aria-label", [where, ...notes].join(", "));
        Object.assign(input.dataset, { line, index, where, notes: notes.join("; ") });
        input.addEventListener("input", () => input.classList.add("edited"));
        const mark = lineMarks.find((m) => m.type === "suspect") || lineMarks[0];
        const unsure = numbers.some((n) => (n.candidates[0]?.prob ?? 1) < UNSURE_BELOW);
        const item = element("li", {
          className: ["clue", mark?.type, fix && "corrected", !fix && unsure && "unsure"]
            .filter(Boolean).join(" "),
        }, [element("span", { className: "line-name", ariaHidden: "true" }, [String(index + 1)]),
            input]);
        if (notes.length) item.title = notes.join("; ");
        inputs[what].push(input);
        return item;
      });
      const list = element("ol", {}, items);
      list.addEventListener("keydown", (event) => { // up and down move between lines
        const step = { ArrowUp: -1, ArrowDown: 1 }[event.key];
        const at = inputs[what].indexOf(event.target);
        if (!step || at < 0 || !inputs[what][at + step]) return;
        event.preventDefault();
        inputs[what][at + step].focus();
      });
      roving(inputs[what]);
      const legend = what === "row_clue" ? "Row clues, top to bottom (left to right in each)"
        : "Column clues, left to right (top to bottom in each)";
      return element("fieldset", { className: `clues ${line}-clues` },
                     [element("legend", {}, [legend]), list]);
    });

  return {
    element: element("div", { className: "clue-editor" }, lists),
    focus(what, row) {
      inputs[what]?.[row]?.focus();
    },
    // The clues the person typed, or an Error naming the lines that are not numbers.
    corrections() {
      const fixes = { clues: [] };
      const invalid = [];
      for (const input of [...inputs.row_clue, ...inputs.col_clue]) {
        input.removeAttribute("aria-invalid");
        if (!input.classList.contains("edited")) continue;
        const clue = parseRuns(input.value);
        if (!clue) {
          input.setAttribute("aria-invalid", "true");
          invalid.push(input.dataset.where.toLowerCase());
          continue;
        }
        fixes.clues.push({ line: input.dataset.line, index: Number(input.dataset.index), clue });
      }
      if (invalid.length) {
        throw new Error("A clue is whole numbers separated by spaces (0 or nothing for an "
                        + `empty line); check the ${invalid.join("; ")}`);
      }
      return fixes;
    },
  };
}

export function suspectList(job, focus) {
  const marks = [...markedCells(job, "cell", "wall_right", "wall_down").values(),
                 ...markedCells(job, "cage_sum").values(),
                 ...markedCells(job, "row_clue").values(),
                 ...markedCells(job, "col_clue").values()];
  const list = element("ul", { className: "suspects" });
  for (const mark of marks) {
    const { row, col, what } = mark.suspect;
    const prefix = { cage_sum: "Cage sum at row", wall_right: "Wall right of row",
                     wall_down: "Wall below row" }[what] || "Row";
    const where = CLUE_LINE[what]
      ? `Clue of ${clueLineName(what, row)}, its ${ordinal(col)} number`
      : `${prefix} ${row + 1}, column ${col + 1}`;
    const button = element("button", { type: "button", className: `link ${mark.type}` },
                           [`${where}: ${describeMark(mark, job.reading?.symbols)}`]);
    button.addEventListener("click", () => focus(what, row, col));
    const item = element("li", {}, [button]);
    // Close-ups are cut from the grid's cells; clue numbers lie outside them.
    if (!CLUE_LINE[what]) Object.assign(item.dataset, { row, col, what });
    list.append(item);
  }
  return list;
}

// A solved grid: the puzzle's digits in black, found ones in blue. With `other` (a second
// solution), cells where the two differ are underlined; only the first table has the id.
export function solutionTable(result, grid, title = "", other = null) {
  const n = grid.length;
  const box = result.puzzle?.box || defaultBox(n);
  const givens = result.puzzle?.givens;
  const entries = result.entries;
  const wrong = new Map((result.wrong_entries || []).map((w) => [`${w.row},${w.col}`, w]));
  const first = grid === result.solution;
  const legend = "given digits in bold, found digits in blue"
    + (entries?.some((row) => row.some(Boolean))
      ? ", your own digits in purple, the ones that contradict the solution in red" : "");
  const table = element("table", { className: "grid solution" },
                        [element("caption", {}, [`${title ? `${title}: ` : "Solved grid: "}`
                                                 + legend])]);
  if (first) table.id = "solution-grid";
  table.style.setProperty("--n", n);
  const body = element("tbody");
  grid.forEach((values, row) => {
    const tr = element("tr");
    values.forEach((value, col) => {
      const classes = boxClasses(row, col, n, box);
      classes.push(givens?.[row]?.[col] ? "given" : "found");
      if (other && other[row][col] !== value) classes.push("differs");
      const mistake = wrong.get(`${row},${col}`);
      if (entries?.[row]?.[col]) classes.push(mistake ? "wrong-entry" : "entry");
      const cell = element("td", { className: classes.join(" ") },
                           [symbolText(value, result.symbols)]);
      if (mistake) cell.title = `you wrote ${mistake.written}; the answer is ${value}`;
      tr.append(cell);
    });
    body.append(tr);
  });
  table.append(body);
  return table;
}

// Close-ups of the suspects, cut from the picture itself: what the reader saw.
export function addCloseUps(list, reading, pictureUrl) {
  const quads = reading.cell_quads;
  const items = [...list.querySelectorAll("li[data-row]")];
  if (!quads || !items.length) return;
  const picture = new Image();
  picture.onload = () => {
    const [width] = reading.image_size || [picture.naturalWidth];
    const scale = picture.naturalWidth / width;
    for (const item of items) {
      const quad = quads[Number(item.dataset.row)][Number(item.dataset.col)];
      const xs = quad.map((p) => p[0] * scale);
      const ys = quad.map((p) => p[1] * scale);
      const cellSide = Math.max(Math.max(...xs) - Math.min(...xs),
                                Math.max(...ys) - Math.min(...ys));
      // A cage sum is small print in its cell's corner: its close-up is that corner,
      // larger, so the digits can be read.
      const isSum = item.dataset.what === "cage_sum";
      const side = isSum ? cellSide * 0.5 : cellSide;
      const margin = side * (isSum ? 0.1 : 0.2);
      const shown = isSum ? 96 : 56;
      const canvas = element("canvas", { width: shown, height: shown, className: "close-up" });
      canvas.style.width = canvas.style.height = `${shown}px`;
      canvas.setAttribute("role", "img");
      canvas.setAttribute("aria-label", isSum ? "Close-up of this cage sum in your picture"
        : "Close-up of this cell in your picture");
      canvas.getContext("2d").drawImage(picture, Math.min(...xs) - margin,
                                        Math.min(...ys) - margin, side + 2 * margin,
                                        side + 2 * margin, 0, 0, shown, shown);
      item.prepend(canvas);
    }
  };
  picture.src = pictureUrl;
}

// The solution as text: one row per line, as the typed-in form takes it back.
export function solutionText(result) {
  const rows = result.solution;
  if (result.kind === "nonogram") return rows.join("\n");
  const sep = rows.length > 9 ? " " : "";
  return rows.map((row) => row.join(sep)).join("\n");
}

// The solved picture, with the clues beside it as in a printed nonogram: column clues
// above, read downwards, row clues to the left.
export function nonogramPicture(rows, puzzle = null) {
  const width = rows[0]?.length || 0;
  const picture = element("div", { className: "picture", id: "nonogram-picture" });
  picture.style.setProperty("--cols", width);
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-label", `Solved picture, ${width} by ${rows.length} cells`);
  for (const line of rows) {
    for (const mark of line) picture.append(element("span", { className: mark === "#" ? "on" : "" }));
  }
  const text = element("details", {}, [
    element("summary", {}, ["The picture as text"]),
    element("pre", { id: "nonogram-text" }, [rows.join("\n")]),
  ]);
  if (!puzzle?.rows || !puzzle?.cols) return element("div", {}, [picture, text]);
  const clue = (runs) => (runs.length ? runs : [0]);
  const colClues = element("div", { className: "col-clues", ariaHidden: "true" },
    puzzle.cols.map((runs) => element("span", {}, clue(runs).map(
      (run) => element("b", {}, [String(run)])))));
  const rowClues = element("div", { className: "row-clues", ariaHidden: "true" },
    puzzle.rows.map((runs) => element("span", {}, [clue(runs).join(" ")])));
  colClues.style.setProperty("--cols", width);
  rowClues.style.setProperty("--rows", rows.length);
  const framed = element("div", { className: "nonogram", id: "nonogram-clued" },
                         [element("span"), colClues, rowClues, picture]);
  framed.style.setProperty("--cols", width);
  framed.style.setProperty("--rows", rows.length);
  return element("div", {}, [framed, text]);
}

// Nonogram clues: one line per row (or column), runs separated by spaces, commas or
// underscores ("3 1", "3,1", "3_1"); an empty line or "0" is a line with no runs.
export function parseClues(text, what) {
  const lines = text.replace(/\s+$/, "").split("\n");
  return lines.map((line, i) => {
    const runs = parseRuns(line);
    if (!runs) throw new Error(`${what} line ${i + 1}: "${line.trim()}" is not a list of whole numbers`);
    return runs;
  });
}

// One line's clue as typed (see parseClues): its runs, or null when a part is no whole
// number.
function parseRuns(text) {
  const runs = text.trim().split(/[\s,_.;]+/).filter(Boolean).map(Number);
  if (runs.some((run) => !Number.isInteger(run) || run < 0)) return null;
  return runs.filter((run) => run > 0);
}
